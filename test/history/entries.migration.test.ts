import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { Principal } from '../../src/core/auth.ts';
import { ManualClock } from '../../src/core/clock.ts';
import { changeIdOf, inChange } from '../../src/core/history.ts';
import { openStore, type Store } from '../../src/store.ts';
import { testDialects } from '../helpers/dialects.ts';
import { oldStoreWithGuide } from '../helpers/old-store.ts';

/** The migration that keeps the embedded store's history in one B-tree (src/resources/history/entries.migration.ts). */
const ENTRIES = '0039-history-entries';

const GUIDE = 'gd_historyentries001';
const principal: Principal = { keyId: 'key_test', creatorId: 'cr_test', scope: 'write', publish: false, role: 'owner' };

const changesOf = (db: Store['db']) =>
  db.selectFrom('changes').selectAll().where('guide_id', '=', GUIDE).orderBy('seq').execute();
const rowsOf = (db: Store['db']) =>
  db
    .selectFrom('change_rows')
    .selectAll()
    .where('change_id', 'in', db.selectFrom('changes').select('id').where('guide_id', '=', GUIDE))
    .orderBy('change_id')
    .orderBy('ord')
    .execute();

for (const { dialect, skip } of await testDialects()) {
  describe(`the history kept as entries (${dialect})`, { skip }, () => {
    // The embedded store names its changes after their guide and place since 0040-history-guide-ids.
    const FIRST = dialect === 'sqlite' ? changeIdOf(GUIDE, 1) : 'chg_entries00000001';
    const SECOND = dialect === 'sqlite' ? changeIdOf(GUIDE, 2) : 'chg_entries00000002';
    const renamedId = (id: unknown) => (id === 'chg_entries00000001' ? FIRST : id === null ? null : SECOND);
    const renamed = (change: Record<string, unknown>) => ({
      ...change,
      id: renamedId(change.id),
      undone_by: renamedId(change.undone_by),
    });
    const clock = new ManualClock('2026-11-28T06:00:00Z');
    const cleanup: Array<() => Promise<void> | void> = [];
    after(async () => {
      for (const step of cleanup.reverse()) await step();
    });

    /** A store whose history was written before the migration: two changes, one undone by the other. */
    async function migratedStore(): Promise<{ store: Store; before: { changes: unknown[]; rows: unknown[] } }> {
      const { old, options } = await oldStoreWithGuide(dialect, ENTRIES, GUIDE, clock, cleanup);
      const at = clock.now();
      await sql`insert into changes (id, guide_id, seq, at, operation, by_id, undone_by) values
        ('chg_entries00000001', ${GUIDE}, 1, ${at}, 'update_spot', 'key_a', 'chg_entries00000002'),
        ('chg_entries00000002', ${GUIDE}, 2, ${at + 1}, 'undo_changes', null, null)`.execute(old.db);
      await sql`insert into change_rows (change_id, tbl, row_key, ord, kind, record_id, before, gone) values
        ('chg_entries00000001', 'spots', '{"id":"spt_b"}', 2, 'spot', 'spt_b', '{"name":"B"}', 0),
        ('chg_entries00000001', 'spots', '{"id":"spt_a"}', 1, 'spot', 'spt_a', null, 1),
        ('chg_entries00000002', 'spots', '{"id":"spt_b"}', 1, 'spot', 'spt_b', '{"name":"C"}', 0)`.execute(old.db);
      const before = { changes: await changesOf(old.db), rows: await rowsOf(old.db) };
      await old.close();
      const store = await openStore(options);
      cleanup.push(() => store.close());
      return { store, before };
    }

    it('reads the changes and rows written before it as they were', async () => {
      const { store, before } = await migratedStore();
      assert.equal(before.changes.length, 2);
      assert.equal(before.rows.length, 3);
      assert.deepEqual(
        (await changesOf(store.db)).map((c) => ({ ...c })),
        (before.changes as Record<string, unknown>[]).map(renamed),
      );
      assert.deepEqual(
        (await rowsOf(store.db)).map((r) => ({ ...r })),
        (before.rows as Record<string, unknown>[]).map((row) => ({ ...row, change_id: renamedId(row.change_id) })),
      );
      // The undo's marks are still found through the undone column.
      const undone = await store.db.selectFrom('changes').select('id').where('undone_by', 'in', [SECOND]).execute();
      assert.deepEqual(
        undone.map((c) => c.id),
        [FIRST],
      );
      if (dialect !== 'sqlite') return;
      // One table, whose key keeps a change's rows beside it, and a guide's changes in their order (its ids).
      const { rows: objects } = await sql<{ type: string; name: string }>`
        select type, name from sqlite_master where name in ('changes', 'change_rows', 'history_entries') order by name`.execute(
        store.db,
      );
      assert.deepEqual(
        objects.map((o) => `${o.type} ${o.name}`),
        ['view change_rows', 'view changes', 'table history_entries'],
      );
      const { rows: indexes } = await sql<{ name: string; partial: number }>`
        select name, partial from pragma_index_list('history_entries') order by name`.execute(store.db);
      assert.deepEqual(
        indexes.map((i) => [i.name, i.partial]),
        [
          ['changes_undone', 1],
          ['sqlite_autoindex_history_entries_1', 0],
        ],
      );
    });

    it('keeps a new change after the ones before it, and nothing of a change whose guide went', async () => {
      const { store } = await migratedStore();
      const spot = sql`insert into spots (id, guide_id, spot_key, name, order_key, created_at, updated_at)
        values ('spt_new', ${GUIDE}, 'new', 'New', 1, ${clock.now()}, ${clock.now()})`;
      const kept = await inChange(store.db, store.dialect, async (trx, change) => {
        await spot.execute(trx);
        await change.close({ operation: 'create_spot', principal, at: clock.now(), guideId: GUIDE });
        return change.id;
      });
      const listed = await changesOf(store.db);
      assert.deepEqual(
        listed.map((c) => [c.id, Number(c.seq)]),
        [
          [FIRST, 1],
          [SECOND, 2],
          [kept, 3],
        ],
      );
      const gone = await inChange(store.db, store.dialect, async (trx, change) => {
        await sql`update spots set name = 'Renamed' where id = 'spt_new'`.execute(trx);
        await sql`delete from guides where id = ${GUIDE}`.execute(trx);
        await change.close({ operation: 'delete_guide', principal, at: clock.now(), guideId: GUIDE });
        return change.id;
      });
      // The guide's removal took its history along, rows and all; the change that removed it kept nothing.
      const left = await store.db
        .selectFrom('change_rows')
        .select('change_id')
        .where('change_id', 'in', [FIRST, SECOND, kept, gone])
        .execute();
      assert.deepEqual(left, []);
      assert.deepEqual(await changesOf(store.db), []);
      if (dialect === 'sqlite') {
        const { rows } = await sql<{ n: number }>`select count(*) as n from history_entries`.execute(store.db);
        assert.equal(Number(rows[0]?.n), 0);
      }
    });
  });
}
