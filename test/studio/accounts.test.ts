import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testDialects } from '../helpers/dialects.ts';
import { type Harness, startServer } from '../helpers/harness.ts';
import { type Mailbox, startMailbox } from '../helpers/mailbox.ts';
import { csrfOf, StudioBrowser } from '../helpers/studio.ts';

const PASSWORD = 'correct horse battery';

function linkIn(body: string): string {
  const match = /(http:\/\/\S+\/studio\/reset\?token=[\w-]+)/.exec(body);
  assert.ok(match, `no reset link in:\n${body}`);
  return match[1] as string;
}

for (const { dialect, skip } of await testDialects()) {
  describe(`studio accounts: sign-up, sign-in, sessions, reset (${dialect})`, { skip }, () => {
    let h: Harness;
    let mail: Mailbox;
    before(async () => {
      mail = await startMailbox();
      h = await startServer({ dialect, env: { SMTP_URL: mail.url, MAIL_FROM: 'Studio <studio@example.com>' } });
    });
    after(async () => {
      await h?.close();
      await mail?.close();
    });

    it('signs up: an HttpOnly, SameSite session cookie, a creator who has not accepted the agreement yet', async () => {
      const b = new StudioBrowser(h.origin);
      const answer = await b.signUp('Maya@Example.com', 'Maya Peaks', PASSWORD);
      assert.equal(answer.status, 303, answer.text);
      assert.equal(answer.location, '/studio/guides');
      const cookie = answer.headers.getSetCookie().find((c) => c.startsWith('studio='));
      assert.ok(cookie, 'a session cookie');
      assert.match(cookie, /HttpOnly/i);
      assert.match(cookie, /SameSite=Lax/i);
      assert.doesNotMatch(cookie, /Secure/i, 'not Secure over plain http');
      const creator = await h.creators.findByEmail('maya@example.com');
      assert.equal(creator?.displayName, 'Maya Peaks');
      assert.equal(creator?.agreementAccepted, false);
      const account = await b.get('/studio/account');
      assert.equal(account.status, 200);
      assert.match(account.text, /maya@example\.com/);
      const confirmation = await mail.next();
      assert.equal(confirmation.to, 'maya@example.com');
      assert.match(confirmation.body, /\/studio\/confirm-email\?token=/, 'a link that confirms the address');
    });

    it('refuses a second account with the same email, a short password, and a bad address', async () => {
      const b = new StudioBrowser(h.origin);
      const twice = await b.signUp('maya@example.com', 'Other', PASSWORD);
      assert.equal(twice.status, 409);
      assert.match(twice.text, /exists/);
      const short = await b.signUp('short@example.com', 'Short', 'abc');
      assert.equal(short.status, 400);
      assert.match(short.text, /at least 10 characters/);
      const bad = await b.signUp('not-an-email', 'Bad', PASSWORD);
      assert.equal(bad.status, 400);
      assert.equal(await h.creators.findByEmail('short@example.com'), undefined, 'nothing written');
    });

    it('signs in and out; a wrong password is refused the same as an unknown email', async () => {
      const b = new StudioBrowser(h.origin);
      const wrong = await b.signIn('maya@example.com', 'wrong password!!');
      const unknown = await b.signIn('nobody@example.com', PASSWORD);
      assert.equal(wrong.status, 401);
      assert.equal(unknown.status, 401);
      assert.equal(
        /class="error"[^>]*>([^<]*)/.exec(wrong.text)?.[1],
        /class="error"[^>]*>([^<]*)/.exec(unknown.text)?.[1],
        'no hint which one exists',
      );
      const right = await b.signIn('maya@example.com', PASSWORD, '/studio/account');
      assert.equal(right.status, 303);
      assert.equal(right.location, '/studio/account');
      assert.equal((await b.get('/studio/account')).status, 200);
      const page = await b.get('/studio/account');
      const out = await b.post('/studio/sign-out', { _csrf: csrfOf(page.text) });
      assert.equal(out.status, 303);
      const after = await b.get('/studio/account');
      assert.equal(after.status, 303, 'signed out: sent to sign in');
      assert.equal(after.location, `/studio/sign-in?next=${encodeURIComponent('/studio/account')}`);
    });

    it('the return address after sign-in never leads off the studio (open redirects)', async () => {
      const attempts = [
        'https://evil.example/',
        '//evil.example/studio/',
        '/\\evil.example',
        '/studio/../api/v1/me',
        '/%2F%2Fevil.example',
        'javascript:alert(1)',
        '/studio/\n//evil.example',
        '/api/v1/me',
      ];
      for (const next of attempts) {
        const b = new StudioBrowser(h.origin);
        const answer = await b.signIn('maya@example.com', PASSWORD, next);
        assert.equal(answer.status, 303, next);
        assert.equal(answer.location, '/studio/guides', `${JSON.stringify(next)} led to ${answer.location}`);
      }
      const signedIn = new StudioBrowser(h.origin);
      await signedIn.signIn('maya@example.com', PASSWORD);
      const page = await signedIn.get('/studio/sign-in?next=https%3A%2F%2Fevil.example');
      assert.equal(page.location, '/studio/guides', 'already signed in: still no way out');
    });

    it('a session token planted before sign-in is never promoted (session fixation)', async () => {
      const b = new StudioBrowser(h.origin);
      const planted = 'A'.repeat(43);
      b.cookies.set('studio', planted);
      await b.signIn('maya@example.com', PASSWORD);
      assert.notEqual(b.cookies.get('studio'), planted);
      const attacker = new StudioBrowser(h.origin);
      attacker.cookies.set('studio', planted);
      assert.equal((await attacker.get('/studio/account')).status, 303);
      // Even a live session in the browser is replaced at sign-in, never carried over.
      const before = b.cookies.get('studio') as string;
      const form = await new StudioBrowser(h.origin).get('/studio/sign-in');
      b.cookies.set(
        'studio-csrf',
        new StudioBrowser(h.origin).cookies.get('studio-csrf') ?? (b.cookies.get('studio-csrf') as string),
      );
      const again = await b.post('/studio/sign-in', {
        _csrf: csrfOf(form.text),
        email: 'maya@example.com',
        password: PASSWORD,
      });
      assert.equal(again.status, 403, 'a token of another browser is refused');
      const token = csrfOf((await b.get('/studio/account')).text);
      const renewed = await b.post('/studio/sign-in', { _csrf: token, email: 'maya@example.com', password: PASSWORD });
      assert.equal(renewed.status, 303);
      assert.notEqual(b.cookies.get('studio'), before, 'a new token at every sign-in');
      const old = new StudioBrowser(h.origin);
      old.cookies.set('studio', before);
      assert.equal((await old.get('/studio/account')).status, 303, 'the replaced session ended');
    });

    it('every form refuses a post without its token, with another token, or from another site (CSRF)', async () => {
      const b = new StudioBrowser(h.origin);
      await b.signIn('maya@example.com', PASSWORD);
      const token = csrfOf((await b.get('/studio/account')).text);
      const forms = [
        '/studio/sign-in',
        '/studio/sign-up',
        '/studio/forgot',
        '/studio/reset',
        '/studio/sign-out',
        '/studio/sign-out-everywhere',
        '/studio/account/password',
        '/studio/confirm-email',
        '/studio/account/confirm-email',
      ];
      for (const form of forms) {
        const none = await b.post(form, { email: 'maya@example.com', password: PASSWORD });
        assert.equal(none.status, 403, `${form} without a token`);
        const forged = await b.post(form, { _csrf: 'forged-token', email: 'maya@example.com' });
        assert.equal(forged.status, 403, `${form} with a forged token`);
        const crossSite = await b.post(
          form,
          { _csrf: token },
          { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
        );
        assert.equal(crossSite.status, 403, `${form} from another site`);
        const nullOrigin = await b.post(form, { _csrf: token }, { origin: 'null' });
        assert.equal(nullOrigin.status, 403, `${form} from a sandboxed frame`);
      }
      // Another browser's token does not fit this browser's secret.
      const other = new StudioBrowser(h.origin);
      const otherToken = csrfOf((await other.get('/studio/sign-in')).text);
      const swapped = await b.post('/studio/sign-out', { _csrf: otherToken });
      assert.equal(swapped.status, 403);
      assert.equal((await b.get('/studio/account')).status, 200, 'still signed in: nothing happened');
    });

    it('pages send a strict policy: no script, no framing, no cache', async () => {
      const b = new StudioBrowser(h.origin);
      const page = await b.get('/studio/sign-in');
      const csp = page.headers.get('content-security-policy') ?? '';
      assert.match(csp, /default-src 'none'/);
      assert.match(csp, /frame-ancestors 'none'/);
      assert.match(csp, /form-action 'self'/);
      assert.doesNotMatch(csp, /script-src/);
      assert.equal(page.headers.get('x-frame-options'), 'DENY');
      assert.equal(page.headers.get('cache-control'), 'no-store');
      assert.doesNotMatch(page.text, /<script/i);
    });

    it('sign out everywhere ends the sessions of every browser', async () => {
      const phone = new StudioBrowser(h.origin);
      const laptop = new StudioBrowser(h.origin);
      await phone.signIn('maya@example.com', PASSWORD);
      await laptop.signIn('maya@example.com', PASSWORD);
      const token = csrfOf((await laptop.get('/studio/account')).text);
      const out = await laptop.post('/studio/sign-out-everywhere', { _csrf: token });
      assert.equal(out.location, '/studio/sign-in?done=signed-out-everywhere');
      assert.equal((await phone.get('/studio/account')).status, 303);
      assert.equal((await laptop.get('/studio/account')).status, 303);
    });

    it('resets a forgotten password by an emailed link that works once', async () => {
      const other = new StudioBrowser(h.origin);
      await other.signIn('maya@example.com', PASSWORD);
      const b = new StudioBrowser(h.origin);
      const asked = await b.submit('/studio/forgot', '/studio/forgot', { email: 'MAYA@example.com' });
      assert.equal(asked.status, 200);
      assert.match(asked.text, /on its way/);
      const unknown = await b.submit('/studio/forgot', '/studio/forgot', { email: 'nobody@example.com' });
      assert.equal(
        unknown.text.replace(/value="[^"]*"/g, ''),
        asked.text.replace(/value="[^"]*"/g, ''),
        'the same answer',
      );
      const message = await mail.next();
      assert.equal(message.to, 'maya@example.com');
      assert.equal(mail.messages.length, 2, 'the confirmation at sign-up and this one: no mail for an unknown address');
      assert.doesNotMatch(message.body, new RegExp(PASSWORD));
      const link = new URL(linkIn(message.body));
      const form = await b.get(link.pathname + link.search);
      assert.equal(form.status, 200);
      const again = await b.get(link.pathname + link.search);
      assert.equal(again.status, 200, 'opening the link spends nothing');
      const token = link.searchParams.get('token') as string;
      const newPassword = 'a brand new passphrase';
      const set = await b.post('/studio/reset', { _csrf: csrfOf(form.text), token, password: newPassword });
      assert.equal(set.status, 303, set.text);
      assert.equal(set.location, '/studio/guides');
      assert.equal((await b.get('/studio/account')).status, 200, 'signed in by the reset');
      assert.equal((await other.get('/studio/account')).status, 303, 'other sessions ended');

      const replay = await b.post('/studio/reset', {
        _csrf: csrfOf(form.text),
        token,
        password: 'attacker chosen pass',
      });
      assert.equal(replay.status, 410, 'a replayed link sets nothing');
      assert.equal((await b.get(link.pathname + link.search)).status, 410);
      assert.equal((await new StudioBrowser(h.origin).signIn('maya@example.com', 'attacker chosen pass')).status, 401);
      assert.equal((await new StudioBrowser(h.origin).signIn('maya@example.com', PASSWORD)).status, 401);
      assert.equal((await new StudioBrowser(h.origin).signIn('maya@example.com', newPassword)).status, 303);
    });

    it('a reset link expires after an hour', async () => {
      const b = new StudioBrowser(h.origin);
      await b.submit('/studio/forgot', '/studio/forgot', { email: 'maya@example.com' });
      const link = new URL(linkIn((await mail.next()).body));
      h.clock.advance(61 * 60_000);
      assert.equal((await b.get(link.pathname + link.search)).status, 410);
    });
  });
}

describe('studio sign-in limits and mail without SMTP', () => {
  let h: Harness;
  const logged: string[] = [];
  before(async () => {
    const { default: pino } = await import('pino');
    const logger = pino({ level: 'info' }, { write: (line: string) => void logged.push(line) });
    h = await startServer({ logger, env: { RATE_LIMIT_MAILS_PER_ACCOUNT_PER_HOUR: '2' } });
  });
  after(async () => {
    await h?.close();
  });

  it('sends an account at most its mail limit of reset links an hour, answering every request alike', async () => {
    const b = new StudioBrowser(h.origin);
    await b.signUp('rita@example.com', 'Rita', PASSWORD);
    const answers: string[] = [];
    for (let i = 0; i < 3; i++) {
      const asked = await b.submit('/studio/forgot', '/studio/forgot', { email: 'rita@example.com' });
      assert.equal(asked.status, 200);
      answers.push(asked.text.replace(/value="[^"]*"/g, ''));
    }
    assert.equal(new Set(answers).size, 1, 'the third request answers as the first: nothing tells it apart');
    const links = logged.filter((l) => l.includes('rita@example.com') && l.includes('/studio/reset?token='));
    assert.equal(links.length, 2, 'two links sent; the third request sent nothing');
  });

  it('writes the reset link to the log when no SMTP server is set, never a password', async () => {
    const b = new StudioBrowser(h.origin);
    await b.signUp('lena@example.com', 'Lena', PASSWORD);
    await b.submit('/studio/forgot', '/studio/forgot', { email: 'lena@example.com' });
    const line = logged.find((l) => l.includes('lena@example.com') && l.includes('/studio/reset?token='));
    assert.ok(line, 'the link is in the log');
    const link = linkIn(JSON.parse(line).body);
    const page = await new StudioBrowser(h.origin).get(new URL(link).pathname + new URL(link).search);
    assert.equal(page.status, 200);
    assert.ok(!logged.some((l) => l.includes(PASSWORD)), 'no password in the log');
  });
});
