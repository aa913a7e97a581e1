import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { type Kysely, sql } from 'kysely';
import type { Principal } from '../../src/core/auth.ts';
import { changeIdRange, inChange } from '../../src/core/history.ts';
import type { Database } from '../../src/db/tables.ts';
import { assertOk } from '../helpers/answers.ts';
import { type Api, describeOverTransports } from '../helpers/api.ts';
import { newGuide } from '../helpers/fixtures.ts';
import type { Harness } from '../helpers/harness.ts';

interface Entry {
  change_id: string;
  tbl: string;
  ord: number;
  guide_id: string | null;
  seq: number | null;
  operation: string | null;
}

const principal: Principal = { keyId: 'key_test', creatorId: 'cr_test', scope: 'write', publish: false, role: 'owner' };

/** A guide's history entries on the embedded store, in key order. */
async function entriesOf(h: Harness, guideId: string): Promise<Entry[]> {
  const { from, to } = changeIdRange(guideId);
  const { rows } = await sql<Entry>`
    select change_id, tbl, ord, guide_id, seq, operation from history_entries
    where change_id >= ${from} and change_id < ${to} order by change_id, ord`.execute(h.store.db);
  return rows;
}

/**
 * On the embedded store a write's change is said on the entry of the first row it touched, not on
 * an entry of its own (resources/history/first-row.migration.ts); list_changes reads it as before,
 * and a write that deletes its guide keeps nothing of it.
 */
await describeOverTransports('a change kept on its first row', (suite, t) => {
  let api: Api;
  let productId: string;
  before(async () => {
    api = suite.apis[t];
    productId = await newGuide(api, 'First rows');
  });

  it('writes what a change is on its first row, and lists it as before', async () => {
    const created = await api.call('upsert_spots', {
      productId,
      spots: ['Bled', 'Bohinj', 'Vintgar'].map((name) => ({ spotKey: name.toLowerCase(), name })),
    });
    assertOk(created);
    const spotId = created.body.spots[1].spotId;
    assertOk(await api.call('update_spot', { spotId, description: 'The quiet lake' }));
    const listed = await api.call('list_changes', { productId });
    assertOk(listed);
    const [update, upsert] = listed.body.changes;
    assert.equal(update.operation, 'update_spot');
    assert.deepEqual(update.records, [{ kind: 'spot', id: spotId }]);
    assert.equal(upsert.operation, 'upsert_spots');
    assert.equal(upsert.records.length, 3);
    assert.equal(update.by.kind, 'key');
    // PostgreSQL keeps each change in a row of its own.
    if (suite.dialect !== 'sqlite') return;
    const entries = (await entriesOf(suite.h, productId)).filter(
      (e) => e.change_id === update.changeId || e.change_id === upsert.changeId,
    );
    assert.equal(entries.filter((e) => e.tbl === '').length, 0, 'no change has an entry of its own');
    const said = entries.filter((e) => e.guide_id !== null);
    assert.deepEqual(
      said.map((e) => [e.change_id, e.tbl, e.ord, e.guide_id, e.operation]),
      [
        [upsert.changeId, 'spots', 1, productId, 'upsert_spots'],
        [update.changeId, 'spots', 1, productId, 'update_spot'],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
      'each change is said once, on the row it touched first',
    );
  });

  // The entries are the embedded store's.
  if (suite.dialect !== 'sqlite') return;
  it('keeps nothing of a change whose write deleted its guide, and an entry of its own for one closed elsewhere', async () => {
    const { db, dialect } = suite.h.store;
    const doomed = await newGuide(api, 'Going');
    const other = await newGuide(api, 'Staying');
    const author = { operation: 'test_write', principal, at: 1_700_000_000_000 };
    /** A write as invoke makes it: its guide stamped and opened, a spot `name` added, `more`, then closed as `closesAs`'s. */
    const write = (
      guideId: string,
      name: string,
      closesAs: string,
      more: (trx: Kysely<Database>) => Promise<unknown> = async () => {},
    ) =>
      inChange(
        db,
        dialect,
        async (trx, change) => {
          const { revision } = await trx
            .updateTable('guides')
            .set((eb) => ({ revision: eb('revision', '+', 1) }))
            .where('id', '=', guideId)
            .returning('revision')
            .executeTakeFirstOrThrow();
          change.opened({ id: guideId, revision: Number(revision) });
          await trx
            .insertInto('spots')
            .values({
              id: `spt_${name}_${t}`,
              guide_id: guideId,
              spot_key: `${name}-${t}`,
              name,
              order_key: 1,
              created_at: 1,
              updated_at: 1,
            } as never)
            .execute();
          await more(trx);
          await change.close({ ...author, guideId: closesAs });
          return change.id;
        },
        author,
      );
    await write(doomed, 'gone', doomed, (trx) => trx.deleteFrom('guides').where('id', '=', doomed).execute());
    assert.deepEqual(await entriesOf(suite.h, doomed), []);
    const { rows } = await sql<{ n: number }>`
      select count(*) as n from history_entries where change_id like ${`%${doomed}%`}`.execute(db);
    assert.equal(Number(rows[0]?.n), 0, 'nothing of it is kept anywhere');

    // Described as a change of one guide, closed as another's: named after that one, its own entry kept.
    const moved = await write(productId, 'elsewhere', other);
    const entries = (await entriesOf(suite.h, other)).filter((e) => e.change_id === moved);
    assert.deepEqual(
      entries.map((e) => [e.tbl, e.guide_id, e.operation]),
      [
        ['', other, 'test_write'],
        ['spots', null, null],
      ],
    );
    assert.deepEqual(
      await entriesOf(suite.h, productId).then((es) => es.filter((e) => e.tbl === 'spots' && e.change_id === moved)),
      [],
    );
  });
});
