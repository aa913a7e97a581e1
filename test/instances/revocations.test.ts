import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { ManualClock } from '../../src/core/clock.ts';
import type { ApiError } from '../../src/core/errors.ts';
import { KeyStore } from '../../src/core/keys.ts';
import { APPLICATION_NAME } from '../../src/db/pg-coordination.ts';
import { CreatorsStore } from '../../src/resources/profile/creator.store.ts';
import { openStore, type Store } from '../../src/store.ts';
import { runAdmin } from '../helpers/admin-cli.ts';
import { freshPostgresSchema, POSTGRES_URL, testDialects } from '../helpers/dialects.ts';

/**
 * Two stores on one database stand for two instances (two pools, two coordination connections):
 * a key cached by one and revoked through the other, or whose account the other deactivates, is
 * refused by the first within a second, however long its cache would keep it.
 */
const WITHIN_MS = 1000;

/** The admin command line in a process of its own, on the given store. */
async function admin(env: Record<string, string>, ...args: string[]): Promise<void> {
  const result = await runAdmin(env, ...args);
  if (result.code !== 0) throw new Error(`admin ${args.join(' ')} failed: ${result.stderr}`);
}

async function refusal(p: unknown): Promise<string> {
  try {
    await p;
    return 'accepted';
  } catch (err) {
    return (err as ApiError).code;
  }
}

/** How long until `check` holds, polled every 20 ms; fails past `limitMs`. */
async function timeUntil(check: () => Promise<boolean>, limitMs: number): Promise<number> {
  const start = performance.now();
  while (!(await check())) {
    if (performance.now() - start > limitMs) assert.fail(`not within ${limitMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return performance.now() - start;
}

for (const { dialect, skip } of await testDialects()) {
  describe(`revocations reach every instance within a second (${dialect})`, { skip }, () => {
    const clock = new ManualClock('2026-11-23T10:00:00Z');
    const dataDir = mkdtempSync(join(tmpdir(), 'creator-api-revocations-'));
    let schema: Awaited<ReturnType<typeof freshPostgresSchema>> | undefined;
    let one: Store;
    let other: Store;
    let server: KeyStore;
    let creatorId: string;
    before(async () => {
      schema = dialect === 'postgres' ? await freshPostgresSchema() : undefined;
      const open = () => openStore({ databaseUrl: schema?.url, dataDir });
      one = await open();
      other = await open();
      // The first instance trusts a key for a minute, unless it hears of a revocation.
      server = new KeyStore(one.db, clock, { cacheMs: 60_000, revocations: one.coordination });
      creatorId = (
        await new CreatorsStore({ db: other.db, clock, dialect }).create({
          email: 'r@example.com',
          displayName: 'R',
          agreementAccepted: true,
        })
      ).creatorId;
      await timeUntil(async () => one.coordination.revocationMark() !== undefined, 5000);
    });
    after(async () => {
      await one?.close();
      await other?.close();
      await schema?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    /** A key the first instance has read and keeps (a second call is served from its memory). */
    async function cachedKey() {
      const made = await new KeyStore(other.db, clock).create({ creatorId, scope: 'write', publish: false });
      await server.authenticate(made.key);
      await server.authenticate(made.key);
      return made;
    }

    it('a key revoked through the other instance is refused within a second', async () => {
      for (let round = 0; round < 5; round++) {
        const { keyId, key } = await cachedKey();
        assert.ok(await new KeyStore(other.db, clock).revoke(keyId));
        const took = await timeUntil(
          async () => (await refusal(server.authenticate(key))) === 'invalid_api_key',
          WITHIN_MS,
        );
        assert.ok(took < WITHIN_MS, `refused after ${took} ms`);
      }
    });

    it('a key revoked or an account deactivated by the admin command line (another process) is refused within a second', async () => {
      const env = { DATA_DIR: dataDir, DATABASE_URL: schema?.url ?? '' };
      const { keyId, key } = await cachedKey();
      await admin(env, 'key', 'revoke', '--key', keyId);
      await timeUntil(async () => (await refusal(server.authenticate(key))) === 'invalid_api_key', WITHIN_MS);
      const live = await cachedKey();
      await admin(env, 'creator', 'deactivate', '--creator', creatorId);
      try {
        await timeUntil(async () => (await refusal(server.authenticate(live.key))) === 'forbidden', WITHIN_MS);
      } finally {
        await new CreatorsStore({ db: other.db, clock, dialect }).update(creatorId, { active: true });
      }
    });

    it('a key revoked inside the other instance’s transaction waits for its commit, and a rollback revokes nothing', async () => {
      const kept = await cachedKey();
      await assert.rejects(
        other.db.transaction().execute(async (trx) => {
          await new KeyStore(trx, clock).revoke(kept.keyId);
          throw new Error('changed my mind');
        }),
      );
      assert.equal((await server.authenticate(kept.key)).keyId, kept.keyId);
      const revoked = await cachedKey();
      await other.db.transaction().execute(async (trx) => {
        await new KeyStore(trx, clock).revoke(revoked.keyId);
      });
      await timeUntil(async () => (await refusal(server.authenticate(revoked.key))) === 'invalid_api_key', WITHIN_MS);
      assert.equal((await server.authenticate(kept.key)).keyId, kept.keyId, 'the other key still works');
    });

    it('an account deactivated through the other instance is refused within a second', async () => {
      const { key } = await cachedKey();
      await new CreatorsStore({ db: other.db, clock, dialect }).update(creatorId, { active: false });
      try {
        await timeUntil(async () => (await refusal(server.authenticate(key))) === 'forbidden', WITHIN_MS);
      } finally {
        await new CreatorsStore({ db: other.db, clock, dialect }).update(creatorId, { active: true });
      }
    });

    if (dialect === 'postgres') {
      it('a key is served from memory meanwhile: a change written by hand, unannounced, waits for the time to live', async () => {
        const { keyId, key } = await cachedKey();
        await other.db.updateTable('api_keys').set({ revoked_at: clock.now() }).where('id', '=', keyId).execute();
        await new Promise((r) => setTimeout(r, 300));
        assert.equal((await server.authenticate(key)).keyId, keyId, 'still served from memory');
        clock.advance(60_000);
        assert.equal(await refusal(server.authenticate(key)), 'invalid_api_key');
      });

      it('while the listening connection is lost, every call reads the store; the connection comes back', async () => {
        const { keyId, key } = await cachedKey();
        const admin = new pg.Client({ connectionString: POSTGRES_URL });
        await admin.connect();
        try {
          const { rows } = await admin.query(
            'select pg_terminate_backend(pid) as ended from pg_stat_activity where application_name = $1',
            [`${APPLICATION_NAME} ${schema!.schema}`],
          );
          assert.equal(rows.length, 1, 'one coordination connection for the first store');
        } finally {
          await admin.end();
        }
        await timeUntil(async () => one.coordination.revocationMark() === undefined, 1000);
        // Revoked behind its back, without an announcement: no mark, so the store is read.
        await other.db.updateTable('api_keys').set({ revoked_at: clock.now() }).where('id', '=', keyId).execute();
        assert.equal(await refusal(server.authenticate(key)), 'invalid_api_key');
        await timeUntil(async () => one.coordination.revocationMark() !== undefined, 5000);
        const again = await cachedKey();
        assert.ok(await new KeyStore(other.db, clock).revoke(again.keyId));
        await timeUntil(async () => (await refusal(server.authenticate(again.key))) === 'invalid_api_key', WITHIN_MS);
      });
    }
  });
}
