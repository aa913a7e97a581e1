import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testDialects } from '../helpers/dialects.ts';
import { type Harness, startServer } from '../helpers/harness.ts';
import { holdEveryConnection } from '../helpers/hold-store.ts';
import { assertTryAgain, type Caller, callerOf } from './outage-calls.ts';

const transports = ['rest', 'mcp'] as const;
const WAIT_MS = 300;

/**
 * Every connection held, opened first within no deadline of the test's making: on a busy machine,
 * opening ten PostgreSQL connections at once can take longer than the short acquire deadline under
 * test, while taking idle ones does not.
 */
async function holdEveryConnectionOpened(h: Harness): Promise<() => Promise<void>> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await holdEveryConnection(h.store);
    } catch (err) {
      // The connections opened so far stay idle in the pool: the next attempt takes them at once.
      if (attempt === 10) throw err;
    }
  }
}

/**
 * Every connection of the store held (the pool's on PostgreSQL, the one of SQLite): a call waits
 * DATABASE_ACQUIRE_TIMEOUT_MS for one, then is told to try again, never held until the client gives up.
 */
for (const { dialect, skip } of await testDialects()) {
  describe(`a call that finds no free store connection (${dialect})`, { skip }, () => {
    let h: Harness;
    let calls: Caller;
    before(async () => {
      h = await startServer({ dialect, env: { DATABASE_ACQUIRE_TIMEOUT_MS: String(WAIT_MS) } });
      calls = callerOf(h.origin, h.alice.writeKey);
    });
    after(async () => {
      await calls?.close();
      await h?.close();
    });

    it('gets 503 in the envelope once the acquire deadline passes, over REST and MCP; answered again once one is free', {
      timeout: 20_000,
    }, async () => {
      for (const t of transports) assert.ok((await calls.listGuides(t)).ok);
      const release = await holdEveryConnectionOpened(h);
      try {
        for (const t of transports) {
          const started = Date.now();
          assertTryAgain(await calls.createGuide(`Held over ${t}`, t), /database is not answering/);
          const took = Date.now() - started;
          assert.ok(took >= WAIT_MS - 50 && took < WAIT_MS + 2000, `${t}: answered after ${took} ms`);
        }
      } finally {
        await release();
      }
      for (const t of transports) assert.ok((await calls.createGuide(`Free over ${t}`, t)).ok);
    });
  });
}
