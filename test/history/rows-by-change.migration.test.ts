import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { Principal } from '../../src/core/auth.ts';
import { ManualClock } from '../../src/core/clock.ts';
import { changeIdOf, inChange } from '../../src/core/history.ts';
import { openStore, type Store } from '../../src/store.ts';
import { testDialects } from '../helpers/dialects.ts';
import { oldStoreWithGuide } from '../helpers/old-store.ts';

/** The migration that keeps a change's rows by their key alone (src/resources/history/rows-by-change.migration.ts). */
const ROWS_BY_CHANGE = '0038-history-rows-by-change';

const GUIDE = 'gd_rowsbychange00001';
const OLD_CHANGE = 'chg_rowsbychange000001';
const principal: Principal = { keyId: 'key_test', creatorId: 'cr_test', scope: 'write', publish: false, role: 'owner' };

for (const { dialect, skip } of await testDialects()) {
  describe(`a change's rows kept by their key (${dialect})`, { skip }, () => {
    const clock = new ManualClock('2026-11-28T01:00:00Z');
    const cleanup: Array<() => Promise<void> | void> = [];
    after(async () => {
      for (const step of cleanup.reverse()) await step();
    });

    it('keeps the order rows were touched in, and numbers new rows by their place in their change', async () => {
      const { old, options } = await oldStoreWithGuide(dialect, ROWS_BY_CHANGE, GUIDE, clock, cleanup);
      const at = clock.now();
      await sql`insert into changes (id, guide_id, seq, at, operation, by_id)
        values (${OLD_CHANGE}, ${GUIDE}, 1, ${at}, 'upsert_spots', null)`.execute(old.db);
      // Touched in an order their keys do not sort in: the numbers are what kept it.
      for (const [id, spot] of [
        [10, 'spt_c'],
        [20, 'spt_a'],
        [30, 'spt_b'],
      ] as const) {
        await sql`insert into change_rows (id, change_id, tbl, row_key, kind, record_id, before, gone)
          values (${id}, ${OLD_CHANGE}, 'spots', ${JSON.stringify({ id: spot })}, 'spot', ${spot}, null, 0)`.execute(
          old.db,
        );
      }
      await old.close();

      const store: Store = await openStore(options);
      cleanup.push(() => store.close());
      const order = async (change: string) =>
        (
          await sql<{ record_id: string; ord: number }>`
            select record_id, ord from change_rows where change_id = ${change} order by ord`.execute(store.db)
        ).rows.map((r) => [r.record_id, Number(r.ord)]);
      // The embedded store names it after its guide and place since 0040-history-guide-ids.
      assert.deepEqual(await order(dialect === 'sqlite' ? changeIdOf(GUIDE, 1) : OLD_CHANGE), [
        ['spt_c', 10],
        ['spt_a', 20],
        ['spt_b', 30],
      ]);

      // PostgreSQL: one index beside the heap, the rows' own key. (The embedded store's rows moved
      // on into the history's entries at 0039: entries.migration.test.ts.)
      if (dialect === 'postgres') {
        const { rows: indexes } = await sql<{ indexname: string }>`
          select indexname from pg_indexes where tablename = 'change_rows' and schemaname = current_schema()`.execute(
          store.db,
        );
        assert.deepEqual(
          indexes.map((i) => i.indexname),
          ['change_rows_row'],
        );
      }

      // A new change numbers its rows in the order it touched them, whatever their keys.
      const spot = (id: string, key: string) =>
        sql`insert into spots (id, guide_id, spot_key, name, order_key, created_at, updated_at)
          values (${id}, ${GUIDE}, ${key}, 'Bled', 1, ${at}, ${at})`;
      const change = await inChange(store.db, store.dialect, async (trx, open) => {
        await spot('spt_z', 'z').execute(trx);
        await spot('spt_y', 'y').execute(trx);
        await sql`update spots set name = 'Bled 2' where id = 'spt_z'`.execute(trx);
        await spot('spt_x', 'x').execute(trx);
        await open.close({ operation: 'test_write', principal, at, guideId: GUIDE });
        return open.id;
      });
      const recorded = await order(change);
      assert.deepEqual(
        recorded.map(([record]) => record),
        ['spt_z', 'spt_y', 'spt_x'],
      );
      const places = recorded.map(([, place]) => place as number);
      assert.deepEqual(
        places,
        [...places].sort((a, b) => a - b),
      );
      assert.equal(new Set(places).size, 3);
    });
  });
}
