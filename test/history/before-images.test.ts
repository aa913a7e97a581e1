import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Kysely, sql } from 'kysely';
import type { Principal } from '../../src/core/auth.ts';
import { inChange } from '../../src/core/history.ts';
import type { Database } from '../../src/db/tables.ts';
import { assertOk } from '../helpers/answers.ts';
import { noRateLimits, useServer } from '../helpers/api.ts';
import { testDialects } from '../helpers/dialects.ts';
import { newGuide } from '../helpers/fixtures.ts';

/**
 * What a change keeps of each row it touched (docs/decisions/history.md): of an update, the columns
 * it changed as they were; a column the same change changes again later keeps its first value,
 * and a row it then deletes is kept whole, as it stood before the change; a row it created keeps
 * nothing, whatever it did to it after. Undoing such a change gives every row back as it was.
 */

const principal: Principal = { keyId: 'key_test', creatorId: 'cr_test', scope: 'write', publish: false, role: 'owner' };

type Rows = Record<string, Record<string, unknown>>;

for (const { dialect, skip } of await testDialects()) {
  describe(`before-images within one change (${dialect})`, { skip }, () => {
    const server = useServer({ dialect, env: noRateLimits });

    /** Writes in one change as invoke records them; answers the change's rows by table and key. */
    async function inOneChange(guideId: string, write: (trx: Kysely<Rows>) => Promise<void>) {
      const db = server.h.store.db;
      const change = await inChange(db, dialect, async (trx, open) => {
        await write(trx as unknown as Kysely<Rows>);
        await open.close({ operation: 'test_write', principal, at: Date.now(), guideId });
        return open.id;
      });
      const rows = await db
        .selectFrom('change_rows')
        .select(['row_key', 'before', 'gone'])
        .where('change_id', '=', change)
        .orderBy('ord')
        .execute();
      return {
        change,
        rows: rows.map((r) => ({
          key: JSON.parse(r.row_key),
          before: JSON.parse(r.before ?? 'null'),
          gone: Number(r.gone),
        })),
      };
    }

    async function spotRow(db: Kysely<Database>, id: string) {
      const rows = await db
        .selectFrom('spots')
        .select(['name', 'description', 'review_notes'])
        .where('id', '=', id)
        .execute();
      return rows.map((r) => ({ ...r }))[0];
    }

    it('keeps the columns an update changed, each at its first value, and a row deleted after whole', async () => {
      const api = server.apis.rest;
      const productId = await newGuide(api, 'Images');
      const created = await api.call('create_spot', { productId, name: 'Bled', description: 'Lake' });
      assertOk(created, 201);
      const kept = await api.call('create_spot', { productId, name: 'Bohinj', description: 'Quiet' });
      assertOk(kept, 201);
      const third = await api.call('create_spot', { productId, name: 'Jasna' });
      assertOk(third, 201);
      const spotId = created.body.spotId as string;
      const thirdId = third.body.spotId as string;
      const otherId = kept.body.spotId as string;
      const set = (trx: Kysely<Rows>, id: string, values: Record<string, unknown>) =>
        trx.updateTable('spots').set(values).where('id', '=', id).execute();

      const updates = await inOneChange(productId, async (trx) => {
        await set(trx, spotId, { name: 'Bled 2' });
        await set(trx, spotId, { name: 'Bled 3', description: 'Lake 2' });
        await set(trx, otherId, { review_notes: 'Late' });
      });
      assert.deepEqual(updates.rows, [
        { key: { id: spotId }, before: { name: 'Bled', description: 'Lake' }, gone: 0 },
        { key: { id: otherId }, before: { review_notes: null }, gone: 0 },
      ]);

      const deleted = await inOneChange(productId, async (trx) => {
        await set(trx, thirdId, { name: 'Jasna 2', review_notes: 'Gone soon' });
        await trx.deleteFrom('spots').where('id', '=', thirdId).execute();
      });
      assert.equal(deleted.rows.length, 1);
      assert.equal(deleted.rows[0]!.gone, 1);
      assert.equal(deleted.rows[0]!.before.name, 'Jasna', 'the name before the change, not the one it set');
      assert.equal(deleted.rows[0]!.before.review_notes, null);
      assert.equal(deleted.rows[0]!.before.id, thirdId, 'the whole row');
      assert.equal(typeof deleted.rows[0]!.before.spot_key, 'string', 'columns it never changed too');

      const made = await inOneChange(productId, async (trx) => {
        await sql`insert into spots (id, guide_id, spot_key, name, order_key, created_at, updated_at)
          select 'spt_madeinonechange', guide_id, 'made', 'New', order_key + 1, created_at, updated_at
          from spots where id = ${spotId}`.execute(trx);
        await set(trx, 'spt_madeinonechange', { name: 'Newer' });
      });
      assert.deepEqual(made.rows, [{ key: { id: 'spt_madeinonechange' }, before: null, gone: 0 }]);

      // Undone newest first: the created spot goes, the updated one comes back whole.
      const undo = await api.call('undo_changes', { productId, changeIds: [made.change, updates.change] });
      assertOk(undo);
      assert.deepEqual(await spotRow(server.h.store.db, spotId), {
        name: 'Bled',
        description: 'Lake',
        review_notes: null,
      });
      assert.equal(await spotRow(server.h.store.db, 'spt_madeinonechange'), undefined);
    });

    it('keeps the first value of a long text the change edited twice, and of one it then deleted', async () => {
      const api = server.apis.rest;
      const productId = await newGuide(api, 'Long texts');
      const long = Array.from({ length: 50 }, (_, i) => `Stage ${i}: ridge, saddle and the long descent.`).join('\n');
      const made = await api.call('create_spot', { productId, name: 'Triglav', description: long });
      assertOk(made, 201);
      const gone = await api.call('create_spot', { productId, name: 'Krn', description: long });
      assertOk(gone, 201);
      const spotId = made.body.spotId as string;
      const goneId = gone.body.spotId as string;
      const set = (trx: Kysely<Rows>, id: string, description: string) =>
        trx.updateTable('spots').set({ description }).where('id', '=', id).execute();

      const edits = [
        long.replace('Stage 40:', 'Stage forty:'),
        long.replace('Stage 40:', 'Stage forty:').replace('Stage 2:', 'Stage two:'),
      ];
      const twice = await inOneChange(productId, async (trx) => {
        for (const text of edits) await set(trx, spotId, text);
      });
      const [edited] = twice.rows;
      if (dialect === 'sqlite') {
        // Both edits, the later first (db/history-splices.ts), not the whole text.
        assert.equal(edited!.before.description.splices.length, 2);
      } else {
        assert.equal(edited!.before.description, long);
      }
      const thenDeleted = await inOneChange(productId, async (trx) => {
        await set(trx, goneId, long.replace('Stage 7:', 'Stage seven:'));
        await trx.deleteFrom('spots').where('id', '=', goneId).execute();
      });
      assert.equal(thenDeleted.rows[0]!.gone, 1);
      assert.equal(thenDeleted.rows[0]!.before.description, long, 'the row whole, as it was before the change');

      assertOk(await api.call('undo_changes', { productId, changeIds: [twice.change] }));
      assert.equal((await spotRow(server.h.store.db, spotId))?.description, long);

      // Only the columns a resource declares (TableHistory.spliced): other readers need the rest whole.
      await inOneChange(productId, (trx) =>
        trx
          .updateTable('spots')
          .set({ review_notes: long })
          .where('id', '=', spotId)
          .execute()
          .then(() => {}),
      );
      const notes = await inOneChange(productId, async (trx) => {
        await trx
          .updateTable('spots')
          .set({ review_notes: `${long}!` })
          .where('id', '=', spotId)
          .execute();
      });
      assert.equal(notes.rows[0]!.before.review_notes, long);
    });
  });
}
