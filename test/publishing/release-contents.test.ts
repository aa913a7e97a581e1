import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LinksStore } from '../../src/resources/links/link.store.ts';
import { assertOk } from '../helpers/answers.ts';
import { type Api, apiFor, transports, useServer } from '../helpers/api.ts';
import { testDialects } from '../helpers/dialects.ts';
import { newGuide } from '../helpers/fixtures.ts';

/**
 * What a release carries beyond spots and places: the sales page draft (get_sales_page's live),
 * itineraries buyers can open; and readiness on itineraries and the last link check.
 */
for (const { dialect, skip } of await testDialects()) {
  describe(`release contents and readiness across resources (${dialect})`, { skip }, () => {
    const suite = useServer({ dialect });

    async function liveGuide(api: Api, name: string): Promise<{ productId: string; spotKey: string; spotId: string }> {
      const productId = await newGuide(api, name);
      assertOk(await api.call('set_guide_price', { productId, amountMinor: 1900, currency: 'eur' }));
      const spot = await api.call('create_spot', { productId, name: 'Lake Bohinj', lat: 46.28, lon: 13.86 });
      assertOk(spot, 201);
      await suite.h.store.db.updateTable('guides').set({ status: 'published' }).where('id', '=', productId).execute();
      return { productId, spotKey: spot.body.spotKey, spotId: spot.body.spotId };
    }
    const codes = async (api: Api, productId: string) =>
      ((await api.call('get_guide_readiness', { productId })).body.findings as Array<{ code: string }>).map(
        (f) => f.code,
      );

    for (const t of transports) {
      it(`${t}: the sales page reaches buyers at publish; later drafts wait for the next one`, async () => {
        const api = apiFor(suite.h, t, suite.h.alice.publishKey);
        const { productId } = await liveGuide(api, 'Sales page at publish');
        assertOk(await api.call('save_sales_page_draft', { productId, headline: 'Seven lakes in three days' }));
        assert.equal((await api.call('get_sales_page', { productId })).body.live, null, 'nothing published yet');
        assertOk(await api.call('publish_changes', { productId }));
        const first = (await api.call('get_sales_page', { productId })).body;
        assert.equal(first.live.headline, 'Seven lakes in three days');
        assert.equal(first.live.updatedAt, undefined, 'the live page is content, not a draft');

        const draft = first.draft.updatedAt as number;
        assertOk(
          await api.call('save_sales_page_draft', { productId, headline: 'Seven lakes', expectedUpdatedAt: draft }),
        );
        assert.equal((await api.call('get_sales_page', { productId })).body.live.headline, 'Seven lakes in three days');
        const status = (await api.call('get_publish_status', { productId })).body;
        assert.deepEqual(
          status.changes.map((c: { kind: string }) => c.kind),
          ['salesPage'],
        );
        assertOk(await api.call('publish_changes', { productId }));
        assert.equal((await api.call('get_sales_page', { productId })).body.live.headline, 'Seven lakes');
      });

      it(`${t}: itineraries buyers can open are released; archiving one takes it out at the next publish`, async () => {
        const api = apiFor(suite.h, t, suite.h.alice.publishKey);
        const { productId, spotKey } = await liveGuide(api, 'Trips at publish');
        const trip = await api.call('create_itinerary', { productId, name: 'A day at the lake' });
        assertOk(trip, 201);
        const days = await api.call('set_itinerary_days', {
          itineraryId: trip.body.itineraryId,
          days: [{ title: 'Day 1', stops: [{ kind: 'spot', spotKey, when: 'morning' }] }],
        });
        assertOk(days);
        assertOk(await api.call('publish_changes', { productId }));
        const [release] = await suite.h.store.db
          .selectFrom('releases')
          .select('snapshot')
          .where('guide_id', '=', productId)
          .execute();
        const released = JSON.parse(release!.snapshot).items.itinerary;
        assert.deepEqual(Object.keys(released), [trip.body.itineraryId]);
        assert.equal(released[trip.body.itineraryId].days[0].stops[0].spotKey, spotKey);

        assertOk(await api.call('update_itinerary', { itineraryId: trip.body.itineraryId, archived: true }));
        const status = (await api.call('get_publish_status', { productId })).body;
        assert.deepEqual(status.changes, [{ kind: 'itinerary', added: 0, changed: 0, removed: 1 }]);
      });

      it(`${t}: readiness warns of a trip stopping at an archived spot, and of links broken at the last check`, async () => {
        const api = apiFor(suite.h, t, suite.h.alice.publishKey);
        const { productId, spotKey, spotId } = await liveGuide(api, 'Readiness across resources');
        const trip = await api.call('create_itinerary', { productId, name: 'Lake loop' });
        assertOk(
          await api.call('set_itinerary_days', {
            itineraryId: trip.body.itineraryId,
            days: [{ stops: [{ kind: 'spot', spotKey }] }],
          }),
        );
        assert.ok(!(await codes(api, productId)).includes('itinerary_archived_spot'));
        assertOk(await api.call('update_spot', { spotId, archived: true }));
        const findings = (await api.call('get_guide_readiness', { productId })).body.findings;
        const stop = findings.find((f: { code: string }) => f.code === 'itinerary_archived_spot');
        assert.equal(stop?.severity, 'warning');
        assert.deepEqual(stop?.where, {
          kind: 'itinerary',
          id: trip.body.itineraryId,
          name: 'Lake loop',
          field: 'days[0].stops[0].spotKey',
        });
        assertOk(await api.call('update_spot', { spotId, archived: false }));
        assert.ok(!(await codes(api, productId)).includes('itinerary_archived_spot'));

        const url = 'https://bohinj.example/boats';
        assertOk(await api.call('update_spot', { spotId, links: [{ kind: 'official', url }] }));
        const links = new LinksStore({ db: suite.h.store.db, clock: suite.h.clock, dialect: suite.h.store.dialect });
        const check = { url, finalUrl: url, checkedAt: '2026-11-20T09:00:00.000Z', error: null };
        await links.saveChecks(productId, [{ ...check, status: 'broken', httpStatus: 404 }]);
        const broken = (await api.call('get_guide_readiness', { productId })).body.findings.find(
          (f: { code: string }) => f.code === 'link_broken',
        );
        assert.equal(broken?.severity, 'warning');
        assert.match(broken?.message ?? '', /404/);
        await links.saveChecks(productId, [{ ...check, status: 'ok', httpStatus: 200 }]);
        assert.ok(!(await codes(api, productId)).includes('link_broken'));
        await links.saveChecks(productId, [{ ...check, status: 'broken', httpStatus: 410 }]);
        assertOk(await api.call('update_spot', { spotId, links: [] }));
        assert.ok(!(await codes(api, productId)).includes('link_broken'), 'a link no longer held is no finding');
      });
    }
  });
}
