import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, afterEach, before, beforeEach, describe, it, mock } from 'node:test';
import pino from 'pino';
import { type App, buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { FIRST_WAIT_S, FREE_FAILURES, LONGEST_WAIT_S } from '../../src/studio/accounts/sign-in-throttle.ts';
import { testDialects } from '../helpers/dialects.ts';
import { type Harness, startServer } from '../helpers/harness.ts';
import { type Mailbox, startMailbox } from '../helpers/mailbox.ts';
import { REDIS_URL, redisSkip } from '../helpers/redis.ts';
import { StudioBrowser, signedInAs } from '../helpers/studio.ts';

const PASSWORD = 'studio password 123';

for (const { dialect, skip } of await testDialects()) {
  describe(`failed sign-ins slow the guesser, never lock the creator out (${dialect})`, { skip }, () => {
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
    // The waits are kept by rate-limiter-flexible, which reads Date: the tests move it, never wait.
    beforeEach(() => mock.timers.enable({ apis: ['Date'], now: Date.now() }));
    afterEach(() => mock.timers.reset());

    /** A creator with a password, who signed in once from 127.0.0.1 (their usual address). */
    async function creator(name: string): Promise<string> {
      const made = await h.newCreator(name);
      await signedInAs(h, made.creatorId, PASSWORD);
      return (await h.creators.find(made.creatorId))?.email as string;
    }

    const from = (address: string) => new StudioBrowser(h.origin, { from: address });
    const guess = (b: StudioBrowser, email: string, n: number) => b.signIn(email, `wrong guess ${n}`);

    it('a guesser at one address waits longer and longer there; the creator gets in from another, even a new one', async () => {
      const email = await creator('Maya');
      const attacker = from('127.0.0.2');
      for (let n = 0; n < FREE_FAILURES.pair + 1; n++) assert.equal((await guess(attacker, email, n)).status, 401);
      const held = await guess(attacker, email, 99);
      assert.equal(held.status, 429, 'the address waits once its free failures are spent');
      assert.equal(Number(held.headers.get('retry-after')), FIRST_WAIT_S);
      assert.match(held.text, /Too many attempts/);
      const warning = await mail.next();
      assert.equal(warning.to, email, 'the creator is told someone is guessing');
      assert.match(warning.body, /from the address 127\.0\.0\.2\b/);
      // The right password is not even looked at while the address waits.
      assert.equal((await from('127.0.0.2').signIn(email, PASSWORD)).status, 429);

      // The guesser goes on, one try after each wait, well past what used to lock the account for an hour.
      let wait = FIRST_WAIT_S;
      for (let n = 0; n < FREE_FAILURES.account; n++) {
        mock.timers.tick(wait * 1000);
        assert.equal((await guess(attacker, email, 100 + n)).status, 401, 'one more try after the wait');
        const longer = await guess(attacker, email, 200 + n);
        assert.equal(longer.status, 429);
        const next = Number(longer.headers.get('retry-after'));
        assert.equal(next, Math.min(2 * wait, LONGEST_WAIT_S.pair), 'each wait twice the last, up to an hour');
        wait = next;
      }

      assert.equal((await from('127.0.0.1').signIn(email, PASSWORD)).status, 303, 'the creator, at home');
      assert.equal((await from('127.0.0.8').signIn(email, PASSWORD)).status, 303, 'the creator, travelling');
      // An unknown email is held back the same way: the answers tell nobody which emails have accounts.
      for (let n = 0; n < FREE_FAILURES.pair + 1; n++) await guess(attacker, 'nobody@example.com', n);
      assert.equal((await guess(attacker, 'nobody@example.com', 99)).status, 429);
    });

    it('guessing from many addresses holds back new addresses too, not the usual one; the creator is told once; the reset mail still comes', async () => {
      const email = await creator('Rita');
      const before = mail.messages.length;
      let failures = 0;
      for (let address = 10; failures < FREE_FAILURES.account + 1; address++) {
        const attacker = from(`127.0.0.${address}`);
        for (let n = 0; n < FREE_FAILURES.pair && failures < FREE_FAILURES.account + 1; n++, failures++) {
          assert.equal((await guess(attacker, email, n)).status, 401);
        }
      }
      const stranger = await from('127.0.0.60').signIn(email, PASSWORD);
      assert.equal(stranger.status, 429, 'a new address waits for the account, right password or not');
      assert.equal(Number(stranger.headers.get('retry-after')), FIRST_WAIT_S);
      assert.equal((await from('127.0.0.1').signIn(email, PASSWORD)).status, 303, 'the usual address gets in');

      const warning = await mail.next();
      assert.equal(warning.to, email);
      assert.match(warning.subject, /trying to sign in/);
      assert.match(warning.body, /did not get in/);
      assert.match(warning.body, /127\.0\.0\.\d+/, 'names where the guesses come from');
      assert.match(warning.body, /\/studio\/forgot/);
      // More guesses after the warning: no second mail the same day.
      await guess(from('127.0.0.61'), email, 1);
      await guess(from('127.0.0.62'), email, 1);

      const reset = await from('127.0.0.60').submit('/studio/forgot', '/studio/forgot', { email });
      assert.equal(reset.status, 200, 'the forgot form answers');
      const link = await mail.next();
      assert.match(link.body, /\/studio\/reset\?token=/, 'and the reset mail is sent, attack or not');
      assert.equal(mail.messages.length - before, 2, 'one warning, one reset link');

      mock.timers.tick(FIRST_WAIT_S * 1000);
      assert.equal((await from('127.0.0.60').signIn(email, PASSWORD)).status, 303, 'the wait passed: in');
    });

    it("the creator's own mistakes make their address wait, and their password gets in once the wait passes", async () => {
      const email = await creator('Lena');
      const home = from('127.0.0.1');
      for (let n = 0; n < FREE_FAILURES.pair + 1; n++) assert.equal((await guess(home, email, n)).status, 401);
      assert.equal((await home.signIn(email, PASSWORD)).status, 429);
      mock.timers.tick(FIRST_WAIT_S * 1000 - 1000);
      assert.equal((await home.signIn(email, PASSWORD)).status, 429, 'not before the wait ends');
      mock.timers.tick(1000);
      assert.equal((await home.signIn(email, PASSWORD)).status, 303);
      // A sign-in clears the address's count: the next mistake is free again.
      assert.equal((await guess(from('127.0.0.1'), email, 1)).status, 401);
      assert.equal((await from('127.0.0.1').signIn(email, PASSWORD)).status, 303);
    });
  });
}

for (const { dialect, skip } of await testDialects()) {
  describe(`failed sign-ins wait on every instance sharing Redis (${dialect})`, { skip: skip || redisSkip }, () => {
    let h: Harness;
    let second: App;
    let secondOrigin: string;
    before(async () => {
      h = await startServer({ dialect, env: { REDIS_URL } });
      const config = loadConfig({ HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'silent', REDIS_URL });
      second = buildApp({ config, store: h.store, clock: h.clock, logger: pino({ level: 'silent' }) });
      secondOrigin = await second.listen('127.0.0.1', 0);
    });
    after(async () => {
      await second?.close();
      await h?.close();
    });

    it('an address that guessed on one instance waits on the other; the creator gets in on either', async () => {
      // Redis is shared with other runs: an email of this run only.
      const email = `${randomUUID()}@example.com`;
      const made = await h.creators.create({ email, displayName: 'Shared', agreementAccepted: false });
      const { AccountsStore } = await import('../../src/studio/accounts/accounts.store.ts');
      const { hashPassword } = await import('../../src/studio/accounts/passwords.ts');
      const accounts = new AccountsStore({ db: h.store.db, clock: h.clock, dialect: h.store.dialect });
      await accounts.setPassword(made.creatorId, await hashPassword(PASSWORD));
      const attacker = new StudioBrowser(h.origin, { from: '127.0.0.2' });
      for (let n = 0; n < FREE_FAILURES.pair + 1; n++) {
        assert.equal((await attacker.signIn(email, `wrong guess ${n}`)).status, 401);
      }
      const elsewhere = await new StudioBrowser(secondOrigin, { from: '127.0.0.2' }).signIn(email, PASSWORD);
      assert.equal(elsewhere.status, 429, 'the other instance holds the same address back');
      assert.equal((await new StudioBrowser(secondOrigin).signIn(email, PASSWORD)).status, 303);
      assert.equal((await new StudioBrowser(h.origin).signIn(email, PASSWORD)).status, 303);
    });
  });
}
