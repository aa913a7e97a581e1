import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testDialects } from '../helpers/dialects.ts';
import { type Harness, startServer } from '../helpers/harness.ts';
import { type Mailbox, startMailbox } from '../helpers/mailbox.ts';
import { csrfOf, StudioBrowser, signedInAs } from '../helpers/studio.ts';

const PASSWORD = 'correct horse battery';
const BANNER = /Confirm that <strong>([^<]+)<\/strong> is your address/;

/** The confirmation link in a mail, as a path of the studio. */
function confirmationPath(body: string): string {
  const match = /http:\/\/\S+(\/studio\/confirm-email\?token=[\w-]+)/.exec(body);
  assert.ok(match, `no confirmation link in:\n${body}`);
  return match[1] as string;
}

for (const { dialect, skip } of await testDialects()) {
  describe(`studio: a creator confirms their email address (${dialect})`, { skip }, () => {
    let h: Harness;
    let mail: Mailbox;
    before(async () => {
      mail = await startMailbox();
      h = await startServer({ dialect, env: { SMTP_URL: mail.url } });
    });
    after(async () => {
      await h?.close();
      await mail?.close();
    });

    it('sign-up mails a link; the unconfirmed creator works in the studio under a banner until the link is confirmed', async () => {
      const b = new StudioBrowser(h.origin);
      assert.equal((await b.signUp('tom@example.com', 'Tom Ridge', PASSWORD)).status, 303);
      const message = await mail.next();
      assert.equal(message.to, 'tom@example.com');
      assert.match(message.subject, /Confirm your email address/);
      assert.equal(BANNER.exec((await b.get('/studio/guides')).text)?.[1], 'tom@example.com');
      assert.equal((await b.get('/studio/keys')).status, 200, 'signed in and working meanwhile');

      const link = confirmationPath(message.body);
      // Opened on another device, signed out: the link is the proof. Opening it confirms nothing.
      const phone = new StudioBrowser(h.origin);
      const form = await phone.get(link);
      assert.equal(form.status, 200);
      assert.equal((await phone.get(link)).status, 200, 'opening spends nothing');
      assert.match((await b.get('/studio/guides')).text, BANNER, 'not confirmed by opening');
      const token = new URL(link, h.origin).searchParams.get('token') as string;
      const confirmed = await phone.post('/studio/confirm-email', { _csrf: csrfOf(form.text), token });
      assert.equal(confirmed.status, 200, confirmed.text);
      assert.match(confirmed.text, /tom@example\.com is confirmed/);
      assert.doesNotMatch((await b.get('/studio/guides')).text, BANNER, 'the banner is gone');
      assert.equal((await phone.get(link)).status, 410, 'the link is spent');
    });

    it('the banner sends a new link, which replaces the old; links work for 7 days', async () => {
      const b = new StudioBrowser(h.origin);
      await b.signUp('una@example.com', 'Una Lakes', PASSWORD);
      const first = confirmationPath((await mail.next()).body);
      const page = await b.get('/studio/guides');
      const again = await b.post('/studio/account/confirm-email', { _csrf: csrfOf(page.text) });
      assert.equal(again.status, 303);
      assert.equal(again.location, '/studio/account?done=confirmation-sent');
      assert.match((await b.get(again.location)).text, /A new link to confirm your address is on its way/);
      const second = confirmationPath((await mail.next()).body);
      assert.equal((await b.get(first)).status, 410, 'the old link stopped working');
      assert.equal((await b.get(second)).status, 200);
      h.clock.advance(7 * 24 * 3600_000 + 60_000);
      assert.equal((await b.get(second)).status, 410, 'expired');
    });

    it('a link for an address the account no longer has confirms nothing', async () => {
      const b = new StudioBrowser(h.origin);
      await b.signUp('vera@example.com', 'Vera', PASSWORD);
      const link = confirmationPath((await mail.next()).body);
      const form = await b.get(link);
      await h.store.db
        .updateTable('creators')
        .set({ email: 'vera.new@example.com' })
        .where('email', '=', 'vera@example.com')
        .execute();
      const token = new URL(link, h.origin).searchParams.get('token') as string;
      assert.equal((await b.post('/studio/confirm-email', { _csrf: csrfOf(form.text), token })).status, 410);
    });

    it('an account the operator made confirms its address too', async () => {
      const alice = await signedInAs(h, h.alice.creatorId);
      const creator = await h.creators.find(h.alice.creatorId);
      assert.equal(BANNER.exec((await alice.get('/studio/guides')).text)?.[1], creator?.email);
    });
  });
}
