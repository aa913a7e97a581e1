import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import { fillReleaseParts } from '../../src/resources/publishing/release-parts.migration.ts';
import { assertOk } from '../helpers/answers.ts';
import { type Api, apiFor, useServer } from '../helpers/api.ts';
import { testDialects } from '../helpers/dialects.ts';
import { newGuide } from '../helpers/fixtures.ts';

/**
 * How a release is stored: its snapshot text, the hash of each row (what publishes compare) and
 * its sales page in a column of its own; and migration 0013 giving older releases the last two.
 */
for (const { dialect, skip } of await testDialects()) {
  describe(`release storage (${dialect})`, { skip }, () => {
    const suite = useServer({ dialect });
    const api = (): Api => suite.apis.rest;
    const publish = async (productId: string) => {
      const publisher = apiFor(suite.h, 'rest', suite.h.alice.publishKey);
      try {
        return await publisher.call('publish_changes', { productId });
      } finally {
        await publisher.close();
      }
    };

    async function liveGuide(name: string, spots: string[]): Promise<{ productId: string; spotIds: string[] }> {
      const a = api();
      const productId = await newGuide(a, name);
      assertOk(await a.call('set_guide_price', { productId, amountMinor: 1500, currency: 'eur' }));
      const spotIds: string[] = [];
      for (const [i, spot] of spots.entries()) {
        const made = await a.call('create_spot', { productId, name: spot, lat: 46.3 + i / 100, lon: 13.9 });
        assertOk(made, 201);
        spotIds.push(made.body.spotId);
      }
      await suite.h.store.db.updateTable('guides').set({ status: 'published' }).where('id', '=', productId).execute();
      return { productId, spotIds };
    }

    const releaseRows = (productId: string) =>
      suite.h.store.db
        .selectFrom('releases')
        .select(['id', 'number', 'content_hash', 'snapshot', 'row_hashes', 'sales_page'])
        .where('guide_id', '=', productId)
        .orderBy('number')
        .execute();

    it('the snapshot text is the JSON of the snapshot, and the release hash is its sha256', async () => {
      const { productId } = await liveGuide('Canonical text', ['Lake', 'Gorge']);
      assertOk(await api().call('save_sales_page_draft', { productId, headline: 'Two places – one day' }));
      const published = await publish(productId);
      assertOk(published);
      const [row] = await releaseRows(productId);
      assert.ok(row);
      assert.equal(row.snapshot, JSON.stringify(JSON.parse(row.snapshot)), 'written as JSON.stringify writes it');
      assert.equal(row.content_hash, createHash('sha256').update(row.snapshot).digest('hex'));
      const snapshot = JSON.parse(row.snapshot);
      assert.deepEqual(JSON.parse(row.sales_page ?? 'null'), snapshot.salesPage);
      const hashes = JSON.parse(row.row_hashes);
      assert.deepEqual(Object.keys(hashes.items.spot).sort(), Object.keys(snapshot.items.spot).sort());
      const [spotId, spot] = Object.entries(snapshot.items.spot)[0] as [string, unknown];
      assert.equal(
        hashes.items.spot[spotId],
        createHash('sha256').update(JSON.stringify(spot)).digest('base64url'),
        "a row's hash is the sha256 of its JSON in the snapshot",
      );
    });

    it('changes count added, changed and removed rows per kind against the release, from the hashes', async () => {
      const { productId, spotIds } = await liveGuide('Diff by hashes', ['Lake', 'Gorge', 'Falls']);
      const [lake, gorge] = spotIds as [string, string, string];
      assertOk(await publish(productId));
      const a = api();
      assertOk(await a.call('update_spot', { spotId: lake, description: 'Cold and clear' }));
      assertOk(await a.call('update_spot', { spotId: gorge, archived: true }));
      assertOk(await a.call('create_spot', { productId, name: 'Meadow', lat: 46.5, lon: 13.9 }), 201);
      assertOk(await a.call('create_spot', { productId, name: 'Pass', lat: 46.6, lon: 13.9 }), 201);
      assertOk(await a.call('update_guide', { productId, name: 'Diff by hashes, renamed' }));
      assertOk(await a.call('save_sales_page_draft', { productId, headline: 'New this year' }));
      const expected = [
        { kind: 'guide', added: 0, changed: 1, removed: 0 },
        { kind: 'salesPage', added: 1, changed: 0, removed: 0 },
        { kind: 'spot', added: 2, changed: 1, removed: 1 },
      ];
      const status = await a.call('get_publish_status', { productId });
      assert.deepEqual(status.body.changes, expected);
      suite.h.clock.advance(1000);
      const published = await publish(productId);
      assertOk(published);
      assert.equal(published.body.release.number, 2);
      assert.deepEqual(published.body.changes, expected);

      // A reviewer-only edit moves no hash; taking the sales page out again removes it.
      assertOk(await a.call('update_spot', { spotId: lake, reviewNotes: 'Ask about the boat' }));
      assert.equal((await a.call('get_publish_status', { productId })).body.differs, false);
      const draft = (await a.call('get_sales_page', { productId })).body.draft.updatedAt as number;
      assertOk(await a.call('save_sales_page_draft', { productId, expectedUpdatedAt: draft }));
      const after = await a.call('get_publish_status', { productId });
      assert.deepEqual(after.body.changes, [{ kind: 'salesPage', added: 0, changed: 1, removed: 0 }]);
    });

    it('migration 0013 gives a release written before it its row hashes and sales page', async () => {
      const { productId } = await liveGuide('Written before', ['Lake']);
      assertOk(await api().call('save_sales_page_draft', { productId, headline: 'Lakes in autumn' }));
      assertOk(await publish(productId));
      const [written] = await releaseRows(productId);
      assert.ok(written);
      // As migration 0013 finds an older release: a snapshot and nothing beside it.
      await suite.h.store.db
        .updateTable('releases')
        .set({ row_hashes: null as unknown as string, sales_page: null })
        .where('id', '=', written.id)
        .execute();
      await fillReleaseParts(suite.h.store.db as unknown as Kysely<unknown>);
      const [filled] = await releaseRows(productId);
      assert.equal(filled?.row_hashes, written.row_hashes);
      assert.equal(filled?.sales_page, written.sales_page);
      const page = await api().call('get_sales_page', { productId });
      assert.equal(page.body.live.headline, 'Lakes in autumn', 'get_sales_page reads the filled column');
      const again = await publish(productId);
      assert.equal(again.body.published, false, 'the same content is still the same release');
    });
  });
}
