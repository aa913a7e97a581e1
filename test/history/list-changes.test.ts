import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { changeIdOf } from '../../src/core/history.ts';
import { assertError, assertOk } from '../helpers/answers.ts';
import { type Api, apiFor, describeOverTransports } from '../helpers/api.ts';
import { newGuide, times } from '../helpers/fixtures.ts';
import type { Harness } from '../helpers/harness.ts';

/** As a write would: the guide's revision moves, so the page kept for the last one is not served. */
async function movedOn(h: Harness, productId: string): Promise<void> {
  await h.store.db
    .updateTable('guides')
    .set((eb) => ({ revision: eb('revision', '+', 1) }))
    .where('id', '=', productId)
    .execute();
}

/**
 * The history as list_changes reads it: newest first, who made each change, the records touched,
 * filters by record and time, pages by cursor, and small answers on a long history.
 */
await describeOverTransports(
  'list_changes',
  (suite, t) => {
    let api: Api;
    let productId: string;
    let spotId: string;
    before(async () => {
      api = suite.apis[t];
      productId = await newGuide(api, 'History');
      const spot = await api.call('create_spot', { productId, name: 'Lake Bled' });
      assertOk(spot, 201);
      spotId = spot.body.spotId;
      assertOk(await api.call('create_spot', { productId, name: 'Vintgar' }), 201);
      assertOk(await api.call('update_spot', { spotId, name: 'Lake Bled, again' }));
    });

    it('lists each write newest first, with its operation, author, records and summary, and no reads', async () => {
      assertOk(await api.call('list_spots', { productId }));
      const a = await api.call('list_changes', { productId });
      assertOk(a);
      assert.deepEqual(
        a.body.changes.map((c: any) => c.operation),
        ['update_spot', 'create_spot', 'create_spot'],
      );
      const [update, , create] = a.body.changes;
      assert.deepEqual(update.records, [{ kind: 'spot', id: spotId }]);
      assert.equal(update.summary, 'changed spot');
      assert.equal(create.summary, 'created spot');
      assert.equal(update.by.kind, 'key');
      assert.match(update.by.name, /^key ending /);
      assert.ok(update.at >= create.at);
      assert.equal(a.body.total, 3);
    });

    it('keeps no change for a write that changed nothing, and numbers the next one after the last kept', async () => {
      const guide = await newGuide(api, 'Nothing changed');
      const spot = await api.call('create_spot', { productId: guide, name: 'Bohinj', description: 'Quiet' });
      assertOk(spot, 201);
      assertOk(await api.call('update_spot', { spotId: spot.body.spotId, description: 'Quiet' }));
      const listed = await api.call('list_changes', { productId: guide });
      assertOk(listed);
      assert.deepEqual(
        listed.body.changes.map((c: any) => c.operation),
        ['create_spot'],
      );
      assertOk(await api.call('update_spot', { spotId: spot.body.spotId, description: 'Busy' }));
      const after = await api.call('list_changes', { productId: guide });
      assertOk(after);
      assert.deepEqual(
        after.body.changes.map((c: any) => [c.operation, c.records]),
        [
          ['update_spot', [{ kind: 'spot', id: spot.body.spotId }]],
          ['create_spot', [{ kind: 'spot', id: spot.body.spotId }]],
        ],
      );
      assert.equal(after.body.total, 2);
    });

    it('keeps the changes that touched one record, and those since a time', async () => {
      const touched = await api.call('list_changes', { productId, recordId: spotId });
      assertOk(touched);
      assert.deepEqual(
        touched.body.changes.map((c: any) => c.operation),
        ['update_spot', 'create_spot'],
      );
      const newest = touched.body.changes[0];
      suite.h.clock.advance(60_000);
      const later = suite.h.clock.now();
      assertOk(await api.call('update_spot', { spotId, name: 'Lake Bled, third' }));
      const since = await api.call('list_changes', { productId, since: later });
      assertOk(since);
      assert.deepEqual(
        since.body.changes.map((c: any) => c.operation),
        ['update_spot'],
      );
      assert.notEqual(since.body.changes[0].changeId, newest.changeId);
    });

    it('pages by cursor, each change once', async () => {
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await api.call('list_changes', cursor ? { productId, limit: 1, cursor } : { productId, limit: 1 });
        assertOk(page);
        seen.push(...page.body.changes.map((c: any) => c.changeId));
        cursor = page.body.nextCursor;
      } while (cursor);
      const all = await api.call('list_changes', { productId, limit: 200 });
      assert.deepEqual(
        seen,
        all.body.changes.map((c: any) => c.changeId),
      );
      assert.equal(new Set(seen).size, seen.length);
    });

    it('names the key that wrote a change by the name the creator gave it', async () => {
      const { key } = await suite.h.keys.create({
        creatorId: suite.h.alice.creatorId,
        name: 'Laptop',
        scope: 'write',
        publish: false,
      });
      const laptop = apiFor(suite.h, t, key);
      try {
        assertOk(await laptop.call('update_spot', { spotId, name: 'Lake Bled, from the laptop' }));
      } finally {
        await laptop.close();
      }
      const [change] = (await api.call('list_changes', { productId, limit: 1 })).body.changes;
      assert.deepEqual(change.by, { kind: 'key', name: 'Laptop' });
    });

    it('refuses a cursor of another list and a limit past the most', async () => {
      assertError(await api.call('list_changes', { productId, cursor: 'bm90LWEtY3Vyc29y' }), 'invalid_argument');
      assertError(await api.call('list_changes', { productId, limit: 201 }), 'invalid_argument');
    });
  },
  (suite) => {
    it("names a change an assistant made through OAuth by the assistant's client name", async () => {
      const api = suite.apis.rest;
      const productId = await newGuide(api, 'Assistant history');
      const db = suite.h.store.db;
      // The grant as the studio records it when the creator connects an assistant; its changes carry its id.
      await db
        .insertInto('assistant_authorizations')
        .values({
          grant_id: 'grant_history_test',
          creator_id: suite.h.alice.creatorId,
          client_id: 'client_history_test',
          client_name: 'Trip Planner',
          scopes: 'read write',
          resource: 'http://127.0.0.1/mcp',
          granted_at: suite.h.clock.now(),
          last_used_at: null,
          revoked_at: null,
        })
        .execute();
      await db
        .insertInto('changes')
        .values({
          // Named as the embedded store names changes (after its guide and place), past any the guide has.
          id: changeIdOf(productId, 1_000_000),
          guide_id: productId,
          seq: 1_000_000,
          at: suite.h.clock.now(),
          operation: 'update_guide',
          by_id: 'grant_history_test',
          undone_by: null,
        })
        .execute();
      await movedOn(suite.h, productId);
      const [change] = (await api.call('list_changes', { productId })).body.changes;
      assert.deepEqual(change.by, { kind: 'assistant', name: 'Trip Planner' });
    });

    it('answers a default page under 64 KB on a guide with 10,000 changes, naming at most 10 records a change', async () => {
      const api = suite.apis.rest;
      const productId = await newGuide(api, 'Long history');
      const keys = times(25, (i) => `s${i}`);
      assertOk(
        await api.call('upsert_spots', { productId, spots: keys.map((spotKey) => ({ spotKey, name: spotKey })) }),
      );
      const [first] = (await api.call('list_changes', { productId })).body.changes;
      assert.equal(first.recordCount, 25);
      assert.equal(first.records.length, 10);
      // 10,000 changes written as the recorder writes them, without 10,000 calls; the newest 200
      // touched 25 spots each, as the upsert did.
      const db = suite.h.store.db;
      const spotIds = first.records.map((r: any) => r.id);
      const rows = times(9_999, (i) => ({
        id: changeIdOf(productId, i + 1_000),
        guide_id: productId,
        seq: i + 1_000,
        at: suite.h.clock.now(),
        operation: 'upsert_spots',
        by_id: suite.h.alice.creatorId,
        undone_by: null,
      }));
      const touched = rows.slice(-200).flatMap((change) =>
        times(25, (n) => ({
          change_id: change.id,
          tbl: 'spots',
          row_key: JSON.stringify({ id: `${spotIds[n % spotIds.length]}_${n}` }),
          ord: n + 1,
          kind: 'spot',
          record_id: `${spotIds[n % spotIds.length]}_${n}`,
          before: JSON.stringify({ name: 'x'.repeat(500) }),
          gone: 0,
        })),
      );
      await db.transaction().execute(async (trx) => {
        for (let i = 0; i < rows.length; i += 500)
          await trx
            .insertInto('changes')
            .values(rows.slice(i, i + 500))
            .execute();
        for (let i = 0; i < touched.length; i += 500) {
          await trx
            .insertInto('change_rows')
            .values(touched.slice(i, i + 500))
            .execute();
        }
      });
      await movedOn(suite.h, productId);
      const page = await api.call('list_changes', { productId });
      assertOk(page);
      assert.equal(page.body.total, 10_000);
      assert.ok(page.body.nextCursor);
      const bytes = Buffer.byteLength(JSON.stringify(page.body));
      assert.ok(bytes < 64_000, `${bytes} bytes`);
    });
  },
);
