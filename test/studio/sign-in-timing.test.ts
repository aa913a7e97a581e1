import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AccountsStore } from '../../src/studio/accounts/accounts.store.ts';
import { hashPassword } from '../../src/studio/accounts/passwords.ts';
import { testDialects } from '../helpers/dialects.ts';
import { type Harness, startServer } from '../helpers/harness.ts';
import { type Mailbox, startMailbox } from '../helpers/mailbox.ts';
import { csrfOf, StudioBrowser } from '../helpers/studio.ts';

/** Sign-ins of each kind measured; an enumerating attacker tries each address once, and so does this. */
const ROUNDS = 15;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

for (const { dialect, skip } of await testDialects()) {
  describe(`studio sign-in timing tells nobody which emails have accounts (${dialect})`, { skip }, () => {
    let h: Harness;
    const known: string[] = [];
    before(async () => {
      h = await startServer({ dialect });
      const accounts = new AccountsStore({ db: h.store.db, clock: h.clock, dialect: h.store.dialect });
      const passwordHash = await hashPassword('the right password');
      for (let i = 0; i < ROUNDS + 2; i++) {
        const creator = await h.creators.create({
          email: `known${i}@example.com`,
          displayName: `Known ${i}`,
          agreementAccepted: false,
        });
        await accounts.setPassword(creator.creatorId, passwordHash);
        known.push(creator.email);
      }
    });
    after(async () => {
      await h?.close();
    });

    it('a wrong password for a known email takes as long as any password for an unknown one (median of many)', async () => {
      const b = new StudioBrowser(h.origin);
      const csrf = csrfOf((await b.get('/studio/sign-in')).text);
      const timed = async (email: string) => {
        const started = performance.now();
        const answer = await b.post('/studio/sign-in', { _csrf: csrf, email, password: 'a wrong password' });
        const ms = performance.now() - started;
        assert.equal(answer.status, 401, answer.text.slice(0, 300));
        return ms;
      };
      // The first of each kind loads the hashing library and makes the decoy: not measured.
      for (let i = 0; i < 2; i++) {
        await timed(`warm-up-${i}@example.com`);
        await timed(known[ROUNDS + i] as string);
      }
      const unknown: number[] = [];
      const wrong: number[] = [];
      // Interleaved, so that a burst of load on the machine slows both kinds alike.
      for (let i = 0; i < ROUNDS; i++) {
        unknown.push(await timed(`nobody${i}@example.com`));
        wrong.push(await timed(known[i] as string));
      }
      const ratio = median(unknown) / median(wrong);
      const figures = `unknown ${median(unknown).toFixed(1)} ms, known ${median(wrong).toFixed(1)} ms`;
      // Without the decoy the ratio is about 0.1; the hash dominates both when it runs on both.
      assert.ok(ratio > 0.5 && ratio < 2, `medians too far apart: ${figures}`);
    });
  });
}

describe('asking for a reset link tells nobody which emails have accounts, whatever the mail server’s pace', () => {
  const MAIL_SERVER_MS = 300;
  let h: Harness;
  let mail: Mailbox;
  const known: string[] = [];
  before(async () => {
    mail = await startMailbox({ acceptAfterMs: MAIL_SERVER_MS });
    h = await startServer({ env: { SMTP_URL: mail.url, MAIL_FROM: 'Studio <studio@example.com>' } });
    // One account per request: each may be sent a few links an hour.
    for (let i = 0; i < 5; i++) {
      const creator = await h.creators.create({
        email: `asks${i}@example.com`,
        displayName: `Asks ${i}`,
        agreementAccepted: false,
      });
      known.push(creator.email);
    }
  });
  after(async () => {
    await h?.close();
    await mail?.close();
  });

  it('answers a known email without waiting for its mail to be accepted', async () => {
    const b = new StudioBrowser(h.origin);
    const csrf = csrfOf((await b.get('/studio/forgot')).text);
    const timed = async (email: string) => {
      const started = performance.now();
      const answer = await b.post('/studio/forgot', { _csrf: csrf, email });
      assert.equal(answer.status, 200, answer.text.slice(0, 300));
      return performance.now() - started;
    };
    const unknown: number[] = [];
    const asked: number[] = [];
    for (const email of known) {
      unknown.push(await timed(`nobody-${email}`));
      asked.push(await timed(email));
    }
    const gap = median(asked) - median(unknown);
    assert.ok(
      gap < MAIL_SERVER_MS / 2,
      `known ${median(asked).toFixed(1)} ms, unknown ${median(unknown).toFixed(1)} ms`,
    );
    for (const email of known) assert.equal((await mail.next()).to, email, 'every link was still sent');
  });
});
