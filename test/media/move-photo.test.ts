import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertError, assertOk } from '../helpers/answers.ts';
import { type Api, apiFor, transports, useServer } from '../helpers/api.ts';
import { testSetups } from '../helpers/blob-stores.ts';
import { latestSnapshot, newGuide } from '../helpers/fixtures.ts';
import { flat } from '../helpers/images.ts';
import { uploadRaw } from '../helpers/uploads.ts';

/** update_media.spotId moves a photo to another spot of its guide, over REST and MCP. */
for (const { dialect, blobStore, skip, name } of await testSetups()) {
  describe(`moving a photo to another spot (${name})`, { skip }, () => {
    const suite = useServer({ dialect, blobStore, env: { RATE_LIMIT_UPLOADS_PER_MINUTE: '1000' } });

    async function photo(productId: string, fields: Record<string, unknown> = {}): Promise<any> {
      const png = await flat(40, 30).png().toBuffer();
      const res = await uploadRaw(suite.h, suite.h.alice.writeKey, png, 'image/png', {
        productId,
        credit: 'Ana Trails',
        ...fields,
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body;
    }
    async function spot(api: Api, productId: string, spotKey: string): Promise<string> {
      const made = await api.call('create_spot', { productId, spotKey, name: spotKey, lat: 46.3, lon: 13.9 });
      assertOk(made, 201);
      return made.body.spotId;
    }
    const listed = async (api: Api, productId: string, spotId?: string) =>
      (await api.call('list_media', { productId, ...(spotId !== undefined && { spotId }) })).body.media.map(
        (m: any) => m.mediaId,
      );

    for (const t of transports) {
      it(`${t}: a photo moves to the end of another spot's photos, and back to the guide with null`, async () => {
        const api = apiFor(suite.h, t, suite.h.alice.publishKey);
        try {
          const productId = await newGuide(api, 'Moves');
          const [lake, gorge] = [await spot(api, productId, 'lake'), await spot(api, productId, 'gorge')];
          const wrong = await photo(productId, { spotId: lake });
          const gorgeFirst = await photo(productId, { spotId: gorge });
          const gorgeSecond = await photo(productId, { spotId: gorge });
          const guideWide = await photo(productId);

          const moved = await api.call('update_media', { mediaId: wrong.mediaId, spotId: gorge, alt: 'The gorge' });
          assertOk(moved);
          assert.deepEqual(moved.body, { ok: true, mediaId: wrong.mediaId });
          assert.deepEqual(await listed(api, productId, gorge), [
            gorgeFirst.mediaId,
            gorgeSecond.mediaId,
            wrong.mediaId,
          ]);
          assert.deepEqual(await listed(api, productId, lake), []);
          const row = (await api.call('list_media', { productId, spotId: gorge })).body.media[2];
          assert.deepEqual([row.spotId, row.spotKey, row.alt, row.credit], [gorge, 'gorge', 'The gorge', 'Ana Trails']);
          assert.ok(row.order > guideWide.order, 'after every photo of the guide, so last of its new spot');

          // The same spot again changes nothing, not even the order.
          assertOk(await api.call('update_media', { mediaId: wrong.mediaId, spotId: gorge }));
          const again = (await api.call('list_media', { productId, spotId: gorge })).body.media[2];
          assert.equal(again.order, row.order);

          assertOk(await api.call('update_media', { mediaId: wrong.mediaId, spotId: null }));
          const [free] = (await api.call('list_media', { productId })).body.media.filter(
            (m: any) => m.mediaId === wrong.mediaId,
          );
          assert.deepEqual([free.spotId, free.spotKey], [null, null]);
        } finally {
          await api.close();
        }
      });

      it(`${t}: another guide's spot or another creator's is not_found, and nothing moves`, async () => {
        const api = suite.apis[t];
        const productId = await newGuide(api, 'Stays put');
        const other = await newGuide(api, 'Another guide');
        const home = await spot(api, productId, 'home');
        const elsewhere = await spot(api, other, 'elsewhere');
        const bobs = apiFor(suite.h, t, suite.h.bob.writeKey);
        try {
          const bobsGuide = await newGuide(bobs, 'Bob');
          const bobsSpot = await spot(bobs, bobsGuide, 'bobs');
          const mine = await photo(productId, { spotId: home });
          for (const spotId of [elsewhere, bobsSpot, 'sp_missing']) {
            const refused = await api.call('update_media', { mediaId: mine.mediaId, spotId, caption: 'not written' });
            assertError(refused, 'not_found');
            assert.match(refused.body.error.message, /list_spots/);
          }
          const row = (await api.call('list_media', { productId })).body.media[0];
          assert.deepEqual(
            [row.spotId, row.caption, row.order],
            [home, null, mine.order],
            'a refused call writes nothing',
          );
          // Bob cannot move Alice's photo, even onto his own spot.
          assertError(await bobs.call('update_media', { mediaId: mine.mediaId, spotId: bobsSpot }), 'not_found');
          assertError(
            await api.call('update_media', { mediaId: mine.mediaId, spotId: '' }),
            'invalid_request',
            'spotId',
          );
        } finally {
          await bobs.close();
        }
      });

      it(`${t}: what names the photo keeps showing it after a move; an archived spot is warned about`, async () => {
        const api = apiFor(suite.h, t, suite.h.alice.publishKey);
        try {
          const productId = await newGuide(api, 'Named photo');
          assertOk(await api.call('set_guide_price', { productId, amountMinor: 1900, currency: 'eur' }));
          const [from, to] = [await spot(api, productId, 'from'), await spot(api, productId, 'to')];
          const shown = await photo(productId, { spotId: from });
          const chapter = await api.call('create_chapter', { productId, name: 'Walks', kind: 'chapter' });
          assertOk(
            await api.call('set_chapter_pages', {
              collectionId: chapter.body.collectionId,
              pages: [{ blocks: [{ kind: 'photo', mediaId: shown.mediaId }] }],
            }),
          );
          const itinerary = await api.call('create_itinerary', {
            productId,
            name: 'A day',
            coverMediaId: shown.mediaId,
          });
          assertOk(itinerary, 201);
          assertOk(
            await api.call('save_sales_page_draft', { productId, headline: 'Walks', heroMediaId: shown.mediaId }),
          );

          assertOk(await api.call('update_media', { mediaId: shown.mediaId, spotId: to }));
          const page = (await api.call('list_chapters', { productId })).body.chapters[0].pages[0];
          assert.deepEqual(page.blocks, [{ kind: 'photo', mediaId: shown.mediaId }]);
          const trip = await api.call('get_itinerary', { itineraryId: itinerary.body.itineraryId });
          assert.equal(trip.body.coverMediaId, shown.mediaId);
          const draft = (await api.call('get_sales_page', { productId })).body.draft;
          assert.equal(draft.heroMediaId, shown.mediaId);
          const saved = await api.call('save_sales_page_draft', {
            productId,
            headline: 'Walks',
            heroMediaId: shown.mediaId,
          });
          assert.equal(saved.body.warnings, undefined, 'the moved photo is still a credited photo of the guide');

          // Buyers get it on its new spot once published.
          await suite.h.store.db
            .updateTable('guides')
            .set({ status: 'published' })
            .where('id', '=', productId)
            .execute();
          assertOk(await api.call('publish_changes', { productId }));
          const snapshot = await latestSnapshot(suite.h, productId);
          assert.equal(snapshot.items.photo[shown.mediaId].spotId, to);

          assertOk(await api.call('update_spot', { spotId: from, archived: true }));
          const hidden = await api.call('update_media', { mediaId: shown.mediaId, spotId: from });
          assertOk(hidden);
          assert.match(hidden.body.warnings.join(' '), /^spotId: that spot is archived/);
        } finally {
          await api.close();
        }
      });
    }
  });
}
