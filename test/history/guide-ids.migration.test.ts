import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { Principal } from '../../src/core/auth.ts';
import { ManualClock } from '../../src/core/clock.ts';
import { changeIdOf, changeIdRange, inChange } from '../../src/core/history.ts';
import { openStore, type Store } from '../../src/store.ts';
import { testDialects } from '../helpers/dialects.ts';
import { oldStoreWithGuide } from '../helpers/old-store.ts';

/** The migration that names the embedded store's changes after their guide (src/resources/history/guide-ids.migration.ts). */
const GUIDE_IDS = '0040-history-guide-ids';

const GUIDE = 'gd_historyguideids01';
const principal: Principal = { keyId: 'key_test', creatorId: 'cr_test', scope: 'write', publish: false, role: 'owner' };

const OLD = ['chg_0mguideids0000000001', 'chg_0mguideids0000000002', 'chg_0mguideids0000000003'];

const listed = async (db: Store['db']) =>
  (
    await db
      .selectFrom('changes')
      .select(['id', 'seq', 'undone_by'])
      .where('guide_id', '=', GUIDE)
      .orderBy('seq')
      .execute()
  ).map((c) => [c.id, Number(c.seq), c.undone_by]);

const rowsOf = async (db: Store['db'], change: string) =>
  (
    await db
      .selectFrom('change_rows')
      .select(['record_id', 'ord'])
      .where('change_id', '=', change)
      .orderBy('ord')
      .execute()
  ).map((r) => [r.record_id, Number(r.ord)]);

const spot = (id: string, at: number) =>
  sql`insert into spots (id, guide_id, spot_key, name, order_key, created_at, updated_at)
    values (${id}, ${GUIDE}, ${id}, 'Bled', 1, ${at}, ${at})`;

for (const { dialect, skip } of await testDialects()) {
  describe(`a guide's changes named after it (${dialect})`, { skip }, () => {
    const clock = new ManualClock('2026-11-28T09:00:00Z');
    const cleanup: Array<() => Promise<void> | void> = [];
    after(async () => {
      for (const step of cleanup.reverse()) await step();
    });

    /** A store whose guide kept three changes before the migration (the third undid the first), at revision 1. */
    async function migratedStore(): Promise<Store> {
      const { old, options } = await oldStoreWithGuide(dialect, GUIDE_IDS, GUIDE, clock, cleanup);
      const at = clock.now();
      await sql`insert into changes (id, guide_id, seq, at, operation, by_id, undone_by) values
        (${OLD[0]}, ${GUIDE}, 1, ${at}, 'create_spot', null, ${OLD[2]}),
        (${OLD[1]}, ${GUIDE}, 2, ${at + 1}, 'update_spot', null, null),
        (${OLD[2]}, ${GUIDE}, 3, ${at + 2}, 'undo_changes', null, null)`.execute(old.db);
      await sql`insert into change_rows (change_id, tbl, row_key, ord, kind, record_id, before, gone) values
        (${OLD[0]}, 'spots', '{"id":"spt_a"}', 1, 'spot', 'spt_a', null, 0),
        (${OLD[1]}, 'spots', '{"id":"spt_b"}', 2, 'spot', 'spt_b', '{"name":"B"}', 0),
        (${OLD[1]}, 'spots', '{"id":"spt_a"}', 1, 'spot', 'spt_a', '{"name":"A"}', 0),
        (${OLD[2]}, 'spots', '{"id":"spt_a"}', 1, 'spot', 'spt_a', '{"name":"A2"}', 1)`.execute(old.db);
      await old.close();
      const store = await openStore(options);
      cleanup.push(() => store.close());
      return store;
    }

    it('renames the changes kept before it, with their rows and undone marks, and moves the revision past them', async () => {
      const store = await migratedStore();
      if (dialect === 'postgres') {
        // PostgreSQL keeps its ids and its index on the guide.
        assert.deepEqual(await listed(store.db), [
          [OLD[0], 1, OLD[2]],
          [OLD[1], 2, null],
          [OLD[2], 3, null],
        ]);
        return;
      }
      const renamed = [1, 2, 3].map((seq) => changeIdOf(GUIDE, seq));
      assert.deepEqual(await listed(store.db), [
        [renamed[0], 1, renamed[2]],
        [renamed[1], 2, null],
        [renamed[2], 3, null],
      ]);
      assert.deepEqual(await rowsOf(store.db, renamed[1] as string), [
        ['spt_a', 1],
        ['spt_b', 2],
      ]);
      const { rows: left } = await sql<{ n: number }>`
        select count(*) as n from history_entries where change_id in (${sql.join(OLD)})`.execute(store.db);
      assert.equal(Number(left[0]?.n), 0, 'no entry keeps an old id');
      const guide = await store.db.selectFrom('guides').select('revision').where('id', '=', GUIDE).executeTakeFirst();
      assert.equal(Number(guide?.revision), 3, 'the revision stands at the last place taken');
      const { rows: indexes } = await sql<{ name: string }>`
        select name from pragma_index_list('history_entries') order by name`.execute(store.db);
      assert.deepEqual(
        indexes.map((i) => i.name),
        ['changes_undone', 'sqlite_autoindex_history_entries_1'],
      );
      // A guide's changes are read through the entries' key, in a range of ids: no index, no sort.
      const { from, to } = changeIdRange(GUIDE);
      const { rows: plan } = await sql<{ detail: string }>`explain query plan
        select id from changes where guide_id = ${GUIDE} and id >= ${from} and id < ${to} order by id desc limit 5`.execute(
        store.db,
      );
      const steps = plan.map((p) => p.detail).join('; ');
      assert.match(steps, /SEARCH history_entries USING PRIMARY KEY \(change_id>\? AND change_id<\?\)/);
      assert.doesNotMatch(steps, /TEMP B-TREE/);
    });

    it('names a write after its guide once the write opens it, and after the old changes', async () => {
      const store = await migratedStore();
      const change = await inChange(store.db, store.dialect, async (trx, open) => {
        await sql`update guides set revision = 4 where id = ${GUIDE}`.execute(trx);
        open.opened({ id: GUIDE, revision: 4 });
        const named = open.id;
        await spot('spt_new', clock.now()).execute(trx);
        await open.close({ operation: 'create_spot', principal, at: clock.now(), guideId: GUIDE });
        return { named, closed: open.id };
      });
      if (dialect === 'sqlite') {
        assert.equal(change.named, changeIdOf(GUIDE, 4), 'named before it touched a row');
        assert.equal(change.closed, change.named);
      }
      const all = await listed(store.db);
      assert.deepEqual(all.at(-1), [change.closed, 4, null]);
      assert.deepEqual(await rowsOf(store.db, change.closed), [['spt_new', 1]]);
    });

    it('moves the rows of a write that touched them before opening its guide, or never opened it', async () => {
      const store = await migratedStore();
      const late = await inChange(store.db, store.dialect, async (trx, open) => {
        await spot('spt_early', clock.now()).execute(trx);
        const before = open.id;
        await sql`update guides set revision = 7 where id = ${GUIDE}`.execute(trx);
        open.opened({ id: GUIDE, revision: 7 });
        await spot('spt_late', clock.now()).execute(trx);
        await open.close({ operation: 'upsert_spots', principal, at: clock.now(), guideId: GUIDE });
        return { before, after: open.id };
      });
      const never = await inChange(store.db, store.dialect, async (trx, open) => {
        await sql`update spots set name = 'Moved' where id = 'spt_late'`.execute(trx);
        await open.close({ operation: 'update_spot', principal, at: clock.now(), guideId: GUIDE });
        return open.id;
      });
      if (dialect === 'sqlite') {
        assert.equal(late.after, changeIdOf(GUIDE, 7));
        // The one never opened took the next revision, as a write's stamp would have.
        assert.equal(never, changeIdOf(GUIDE, 8));
        const guide = await store.db.selectFrom('guides').select('revision').where('id', '=', GUIDE).executeTakeFirst();
        assert.equal(Number(guide?.revision), 8);
      }
      // (PostgreSQL numbers rows across changes: their order is what is compared.)
      const touched = async (change: string) => (await rowsOf(store.db, change)).map(([record]) => record);
      assert.deepEqual(await touched(late.after), ['spt_early', 'spt_late']);
      assert.deepEqual(await touched(late.before), dialect === 'sqlite' ? [] : ['spt_early', 'spt_late']);
      assert.deepEqual(await touched(never), ['spt_late']);
      const ids = (await listed(store.db)).map(([id]) => id);
      assert.deepEqual(ids.slice(-2), [late.after, never]);
    });
  });
}
