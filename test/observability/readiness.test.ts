import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { testDialects } from '../helpers/dialects.ts';
import { type Harness, startServer } from '../helpers/harness.ts';
import { holdEveryConnection } from '../helpers/hold-store.ts';

async function readyz(h: Harness): Promise<{ status: number; body: any; cacheControl: string | null }> {
  const res = await fetch(`${h.origin}/readyz`);
  return { status: res.status, body: await res.json(), cacheControl: res.headers.get('cache-control') };
}

for (const { dialect, skip } of await testDialects()) {
  describe(`/readyz (${dialect})`, { skip }, () => {
    let h: Harness;
    before(async () => {
      h = await startServer({ dialect });
    });
    after(() => h?.close());

    it('200 ready when the store answers and every migration has run: no key, never cached', async () => {
      const answer = await readyz(h);
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.body, { status: 'ready', dependencies: { store: { status: 'up' } } });
      assert.equal(answer.cacheControl, 'no-store');
      assert.equal((await fetch(`${h.origin}/healthz`)).status, 200, 'liveness beside it');
    });

    it('503 while a migration this build knows has not run, naming it; ready again once it has', async () => {
      const { rows } = await sql<{
        name: string;
      }>`select name from kysely_migration order by name desc limit 1`.execute(h.store.db);
      const last = rows[0]?.name as string;
      const { rows: saved } = await sql<
        Record<string, unknown>
      >`select * from kysely_migration where name = ${last}`.execute(h.store.db);
      await sql`delete from kysely_migration where name = ${last}`.execute(h.store.db);
      try {
        const answer = await readyz(h);
        assert.equal(answer.status, 503);
        assert.equal(answer.body.status, 'not_ready');
        assert.match(answer.body.reason, new RegExp(`1 migration\\(s\\) not run yet, first ${last}`));
      } finally {
        await sql`insert into kysely_migration (name, timestamp) values (${last}, ${saved[0]?.timestamp})`.execute(
          h.store.db,
        );
      }
      assert.equal((await readyz(h)).status, 200);
    });

    it('503 when the store does not answer within 2 s (every connection held), ready once it does', async () => {
      const release = await holdEveryConnection(h.store);
      try {
        const started = Date.now();
        const answer = await readyz(h);
        assert.equal(answer.status, 503);
        assert.deepEqual(answer.body, {
          status: 'not_ready',
          reason: 'the store did not answer within 2 s',
          dependencies: { store: { status: 'down', reason: 'the store did not answer within 2 s' } },
        });
        assert.ok(Date.now() - started < 4000, 'a probe gets its answer in bounded time');
      } finally {
        await release();
      }
      assert.equal((await readyz(h)).status, 200);
    });
  });
}
