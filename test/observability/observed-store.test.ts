import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { openStore, type Store } from '../../src/store.ts';
import { freshPostgresSchema, testDialects } from '../helpers/dialects.ts';

/** The store wrapper the metrics and traces watch: it must change nothing of what the store does. */
for (const { dialect, skip } of await testDialects()) {
  describe(`the observed store (${dialect})`, { skip }, () => {
    let store: Store;
    let dir: string;
    let dropSchema = async () => {};
    const statements: string[] = [];
    let stopWatching = () => {};

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'observed-store-'));
      const schema = dialect === 'postgres' ? await freshPostgresSchema() : undefined;
      if (schema) dropSchema = schema.drop;
      store = await openStore({ dataDir: dir, databaseUrl: schema?.url });
      stopWatching = store.probe.attach({
        statement: (text) => {
          statements.push(text);
          return () => {};
        },
      });
    });
    after(async () => {
      stopWatching();
      await store?.close();
      await dropSchema();
      rmSync(dir, { recursive: true, force: true });
    });

    it('passes savepoints through, and reports them with the other statements', async () => {
      statements.length = 0;
      const trx = await store.db.startTransaction().execute();
      const inner = await trx.savepoint('first').execute();
      await sql`select 1 as one`.execute(inner);
      const back = await inner.rollbackToSavepoint('first').execute();
      const second = await back.savepoint('second').execute();
      await (await second.releaseSavepoint('second').execute()).commit().execute();
      assert.deepEqual(statements, [
        'begin',
        'savepoint',
        'select 1 as one',
        'rollback',
        'savepoint',
        'release',
        'commit',
      ]);
      assert.deepEqual(store.probe.use().inUse, 0);
    });

    it('serves concurrent transactions and reads in full, and gives every connection back', async () => {
      const results = await Promise.all(
        Array.from({ length: 25 }, (_, i) =>
          i % 2 === 0
            ? store.db
                .transaction()
                .execute(async (trx) => (await sql<{ n: number }>`select ${i} as n`.execute(trx)).rows)
            : sql<{ n: number }>`select ${i} as n`.execute(store.db).then((r) => r.rows),
        ),
      );
      assert.deepEqual(
        results.map((rows) => Number(rows[0]?.n)),
        Array.from({ length: 25 }, (_, i) => i),
      );
      const use = store.probe.use();
      assert.equal(use.inUse, 0);
      assert.equal(use.waiting, 0);
    });

    it('a failed statement inside a transaction rolls it back and frees the connection', async () => {
      await assert.rejects(
        store.db.transaction().execute(async (trx) => {
          await sql`select * from no_such_table`.execute(trx);
        }),
      );
      assert.equal(store.probe.use().inUse, 0);
      assert.equal((await sql<{ n: number }>`select 7 as n`.execute(store.db)).rows[0]?.n, 7);
    });
  });
}
