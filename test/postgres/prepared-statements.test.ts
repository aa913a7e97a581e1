import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import type { Store } from '../../src/store.ts';
import { testDialects } from '../helpers/dialects.ts';
import { startServer } from '../helpers/harness.ts';
import { rest } from '../helpers/http.ts';

const postgres = (await testDialects()).find((d) => d.dialect === 'postgres');

/** The statements prepared on one connection of the store, after it ran a parameterized query. */
async function preparedOnOneConnection(store: Store): Promise<Array<{ name: string; statement: string }>> {
  return store.db.transaction().execute(async (trx) => {
    await trx.selectFrom('guides').select('id').where('id', '=', 'gd_none').execute();
    const { rows } = await sql<{ name: string; statement: string }>`
      select name, statement from pg_prepared_statements`.execute(trx);
    return rows;
  });
}

describe('named prepared statements on PostgreSQL', { skip: postgres?.skip ?? 'PostgreSQL not tested' }, () => {
  it('each parameterized statement is prepared once per connection, under one name per text', async () => {
    const h = await startServer({ dialect: 'postgres' });
    try {
      const prepared = await preparedOnOneConnection(h.store);
      const mine = prepared.filter((p) => p.name.startsWith('creator_api_'));
      assert.ok(
        mine.some((p) => /from "guides" where "id" = \$1/.test(p.statement)),
        JSON.stringify(prepared),
      );
      assert.equal(new Set(mine.map((p) => p.statement)).size, mine.length, 'one name per text');
    } finally {
      await h.close();
    }
  });

  it('DATABASE_PREPARED_STATEMENTS=false prepares none', async () => {
    const h = await startServer({ dialect: 'postgres', env: { DATABASE_PREPARED_STATEMENTS: 'false' } });
    try {
      assert.deepEqual(await preparedOnOneConnection(h.store), []);
    } finally {
      await h.close();
    }
  });

  it('a column added under running statements (a rolling upgrade) fails no read and no write', async () => {
    const h = await startServer({ dialect: 'postgres' });
    try {
      const key = h.alice.writeKey;
      const productId = (await rest(h.baseUrl, key, 'POST', '/guides', { name: 'Upgraded' })).body.productId;
      const spotId = (await rest(h.baseUrl, key, 'POST', `/guides/${productId}/spots`, { name: 'A' })).body.spotId;
      // Every connection of the pool prepares the statements that read whole spot rows.
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          i % 2
            ? rest(h.baseUrl, key, 'GET', `/spots/${spotId}`)
            : rest(h.baseUrl, key, 'PATCH', `/spots/${spotId}`, { description: `before ${i}` }),
        ),
      );
      await sql`alter table spots add column added_by_a_newer_release text`.execute(h.store.db);
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          i % 2
            ? rest(h.baseUrl, key, 'GET', `/spots/${spotId}`)
            : rest(h.baseUrl, key, 'PATCH', `/spots/${spotId}`, { description: `after ${i}` }),
        ),
      );
      assert.deepEqual(
        answers.map((a) => a.status),
        Array(20).fill(200),
        JSON.stringify(answers.filter((a) => a.status !== 200).map((a) => a.body)),
      );
    } finally {
      await h.close();
    }
  });
});
