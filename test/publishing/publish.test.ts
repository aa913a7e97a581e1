import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertError, assertOk } from '../helpers/answers.ts';
import { type Api, apiFor, transports, useServer } from '../helpers/api.ts';
import { testDialects } from '../helpers/dialects.ts';
import { newGuide } from '../helpers/fixtures.ts';

/** get_publish_status and publish_changes: gates, releases, immutability and races. */
for (const { dialect, skip } of await testDialects()) {
  describe(`publishing (${dialect})`, { skip }, () => {
    const suite = useServer({ dialect });

    /** A guide with a price and one spot, live as the studio leaves it (no release yet). */
    async function liveGuide(api: Api, name: string): Promise<{ productId: string; spotId: string }> {
      const productId = await newGuide(api, name);
      assertOk(await api.call('set_guide_price', { productId, amountMinor: 1500, currency: 'eur' }));
      const spot = await api.call('create_spot', {
        productId,
        name: 'Lake',
        lat: 46.3,
        lon: 13.9,
        description: 'Clear water',
        sources: [{ url: 'https://example.com/lake', title: 'Park office' }],
        reviewNotes: 'Check the boat times',
      });
      assertOk(spot, 201);
      await suite.h.store.db.updateTable('guides').set({ status: 'published' }).where('id', '=', productId).execute();
      return { productId, spotId: spot.body.spotId };
    }

    const releases = (productId: string) =>
      suite.h.store.db
        .selectFrom('releases')
        .select(['number', 'snapshot', 'key_id'])
        .where('guide_id', '=', productId)
        .orderBy('number')
        .execute();

    for (const t of transports) {
      describe(`over ${t}`, () => {
        const api = () => apiFor(suite.h, t, suite.h.alice.publishKey);

        it('publish_changes needs the publish option', async () => {
          const { productId } = await liveGuide(suite.apis[t], 'Scope');
          assertError(await suite.apis[t].call('publish_changes', { productId }), 'api_scope_required');
          assert.equal((await releases(productId)).length, 0);
        });

        it('a guide that is not live, or has blocking findings, is not publishable; details.blocking lists the gates', async () => {
          const a = api();
          const draft = await newGuide(a, 'Draft');
          const refused = await a.call('publish_changes', { productId: draft });
          assertError(refused, 'not_publishable');
          assert.deepEqual(
            refused.body.error.details.blocking.map((g: { code: string }) => g.code),
            ['not_live', 'no_price', 'no_spots'],
          );
          assert.ok(refused.body.error.details.blocking.every((g: { message: string }) => g.message.length > 0));
          const status = await a.call('get_publish_status', { productId: draft });
          assertOk(status);
          assert.equal(status.body.live, false);
          assert.equal(status.body.currentRelease, null);
          assert.deepEqual(status.body.blocking, refused.body.error.details.blocking);
          assert.equal((await releases(draft)).length, 0);
          await a.close();
        });

        it('the agreement not accepted answers agreement_outdated and writes nothing', async () => {
          const a = api();
          const { productId } = await liveGuide(a, 'Agreement');
          const { creator_id } = await suite.h.store.db
            .selectFrom('guides')
            .select('creator_id')
            .where('id', '=', productId)
            .executeTakeFirstOrThrow();
          const set = (v: number) =>
            suite.h.store.db
              .updateTable('creators')
              .set({ agreement_accepted: v })
              .where('id', '=', creator_id)
              .execute();
          await set(0);
          try {
            assertError(await a.call('publish_changes', { productId }), 'agreement_outdated');
          } finally {
            await set(1);
          }
          assert.equal((await releases(productId)).length, 0);
          await a.close();
        });

        it('a release is immutable: edits show in the status, not in the release, until the next publish', async () => {
          const a = api();
          const { productId, spotId } = await liveGuide(a, 'Immutable');
          let status = await a.call('get_publish_status', { productId });
          assert.equal(status.body.live, true);
          assert.equal(status.body.differs, true);
          assert.deepEqual(status.body.blocking, []);

          const first = await a.call('publish_changes', { productId });
          assertOk(first);
          assert.equal(first.body.published, true);
          assert.equal(first.body.release.number, 1);
          assert.equal(first.body.release.publishedAt, suite.h.clock.now());
          assert.ok(
            first.body.changes.some((c: { kind: string; added: number }) => c.kind === 'spot' && c.added === 1),
          );
          const [row] = await releases(productId);
          const snapshot = JSON.parse(row?.snapshot ?? '{}');
          const spot = snapshot.items.spot[spotId];
          assert.equal(spot.description, 'Clear water');
          assert.equal(spot.sources, undefined, 'sources are left out');
          assert.equal(spot.reviewNotes, undefined, 'review notes are left out');
          assert.equal(spot.customNotes, undefined, 'custom notes are left out');
          assert.equal(snapshot.guide.price.amountMinor, 1500);
          assert.equal(snapshot.salesPage, null);
          assert.ok(row?.key_id, 'the key that published it');

          const again = await a.call('publish_changes', { productId });
          assertOk(again);
          assert.equal(again.body.published, false);
          assert.equal(again.body.release.number, 1);
          assert.match(again.body.message, /Nothing changed/);

          // Reviewer-only edits change nothing buyers see.
          assertOk(await a.call('update_spot', { spotId, reviewNotes: 'Boat runs May to October' }));
          status = await a.call('get_publish_status', { productId });
          assert.equal(status.body.differs, false);

          assertOk(await a.call('update_spot', { spotId, description: 'Clear, cold water' }));
          assertOk(await a.call('create_spot', { productId, name: 'Gorge', lat: 46.4, lon: 14.0 }), 201);
          status = await a.call('get_publish_status', { productId });
          assert.equal(status.body.differs, true);
          assert.deepEqual(status.body.currentRelease, first.body.release);
          assert.deepEqual(status.body.changes, [{ kind: 'spot', added: 1, changed: 1, removed: 0 }]);
          const unchanged = await releases(productId);
          assert.equal(unchanged.length, 1);
          assert.equal(JSON.parse(unchanged[0]?.snapshot ?? '{}').items.spot[spotId].description, 'Clear water');

          suite.h.clock.advance(1000);
          const second = await a.call('publish_changes', { productId });
          assertOk(second);
          assert.equal(second.body.release.number, 2);
          assert.deepEqual(second.body.changes, [{ kind: 'spot', added: 1, changed: 1, removed: 0 }]);
          const both = await releases(productId);
          assert.equal(JSON.parse(both[0]?.snapshot ?? '{}').items.spot[spotId].description, 'Clear water');
          assert.equal(JSON.parse(both[1]?.snapshot ?? '{}').items.spot[spotId].description, 'Clear, cold water');
          status = await a.call('get_publish_status', { productId });
          assert.equal(status.body.differs, false);
          assert.deepEqual(status.body.changes, []);
          await a.close();
        });

        it('rows past reviewBy warn in the status and do not block', async () => {
          const a = api();
          const { productId, spotId } = await liveGuide(a, 'Review');
          assertOk(await a.call('update_spot', { spotId, reviewBy: '2026-01-01' }));
          const status = await a.call('get_publish_status', { productId });
          assert.deepEqual(
            status.body.warnings.map((w: { code: string }) => w.code),
            ['review_due'],
          );
          assert.deepEqual(status.body.blocking, []);
          assertOk(await a.call('publish_changes', { productId }));
          await a.close();
        });
      });
    }

    it('racing publishes never tear: one release per change, numbered without gaps', async () => {
      const a = apiFor(suite.h, 'rest', suite.h.alice.publishKey);
      const { productId, spotId } = await liveGuide(a, 'Race');
      const answers = await Promise.all(Array.from({ length: 4 }, () => a.call('publish_changes', { productId })));
      for (const r of answers) assertOk(r);
      assert.deepEqual(answers.map((r) => r.body.published).sort(), [false, false, false, true]);
      assertOk(await a.call('update_spot', { spotId, description: 'Edited' }));
      const racing = await Promise.all([
        a.call('publish_changes', { productId }),
        a.call('update_spot', { spotId, description: 'Edited again' }),
        a.call('publish_changes', { productId }),
      ]);
      for (const r of racing) assertOk(r);
      const rows = await releases(productId);
      assert.deepEqual(
        rows.map((r) => r.number),
        rows.map((_, i) => i + 1),
      );
      assert.ok(rows.length >= 2 && rows.length <= 3);
      for (const r of rows) assert.ok(JSON.parse(r.snapshot).items.spot[spotId], 'every release is whole');
      await a.close();
    });
  });
}
