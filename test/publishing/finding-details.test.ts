import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertOk } from '../helpers/answers.ts';
import { type Api, useServer } from '../helpers/api.ts';
import { clientLines, withClient } from '../helpers/clients.ts';
import { testDialects } from '../helpers/dialects.ts';
import { newGuide } from '../helpers/fixtures.ts';
import { flat } from '../helpers/images.ts';
import { uploadRaw } from '../helpers/uploads.ts';
import { TODAY } from './readiness-cases.ts';

interface Finding {
  code: string;
  where: { kind: string; name: string; field: string };
}

/** The findings of one code, as `name field` pairs. */
async function found(api: Api, productId: string, code: string): Promise<string[]> {
  const a = await api.call('get_guide_readiness', { productId, code, limit: 200 });
  assertOk(a);
  return (a.body.findings as Finding[]).map((f) => `${f.where.name} ${f.where.field}`).sort();
}

async function made(api: Api, name: string, args: Record<string, unknown>): Promise<any> {
  const a = await api.call(name, args);
  assert.equal(a.ok, true, JSON.stringify(a.body));
  return a.body;
}

/**
 * What each rule counts and what it lets pass, beyond its one cause and fix
 * (each-rule.test.ts): the edges an assistant meets on a real guide.
 */
for (const { dialect, skip } of await testDialects()) {
  describe(`readiness rules at their edges (${dialect})`, { skip }, () => {
    const suite = useServer({ dialect, now: `${TODAY}T10:00:00Z` });

    for (const line of clientLines) {
      describe(`through ${line}`, () => {
        it('chapter_empty: prose, an intro, pages or a card is something to show; archived spots are not', async () => {
          await withClient(suite.h, line, suite.h.alice.writeKey, async (api) => {
            const productId = await newGuide(api, 'Chapters');
            const lake = await made(api, 'create_spot', { productId, name: 'Lake', lat: 46.3, lon: 13.9 });
            const mill = await made(api, 'create_spot', { productId, name: 'Mill', lat: 46.3, lon: 13.9 });
            const chapter = (name: string, fields: Record<string, unknown> = {}) =>
              made(api, 'create_chapter', { productId, name, kind: 'chapter', ...fields });
            await chapter('With prose', { body: ['Start early: the gorge fills by ten.'] });
            const intro = await chapter('With an intro');
            await made(api, 'set_chapter_intro', {
              collectionId: intro.collectionId,
              intro: { coverTitle: 'Before you go', sections: [{ title: 'Getting there', paragraphs: ['By bus.'] }] },
            });
            const paged = await chapter('With pages');
            await made(api, 'set_chapter_pages', {
              collectionId: paged.collectionId,
              pages: [{ title: 'A day', blocks: [{ kind: 'paragraph', text: 'Walk the shore.' }] }],
            });
            const bare = await chapter('Bare chapter');
            const cards = await made(api, 'create_chapter', { productId, name: 'Cards' });
            await made(api, 'set_chapter_members', {
              collectionId: cards.collectionId,
              members: [{ memberCollectionId: paged.collectionId }],
            });
            const archived = await made(api, 'create_chapter', { productId, name: 'Only archived' });
            await made(api, 'set_chapter_members', {
              collectionId: archived.collectionId,
              members: [{ spotKey: mill.spotKey }],
            });
            await made(api, 'update_spot', { spotId: mill.spotId, archived: true });
            await made(api, 'create_chapter', { productId, name: 'Nothing yet' });

            assert.deepEqual(await found(api, productId, 'chapter_empty'), [
              'Bare chapter members',
              'Nothing yet members',
              'Only archived members',
            ]);
            const messages = (
              await made(api, 'get_guide_readiness', { productId, code: 'chapter_empty' })
            ).findings.map((f: { message: string }) => f.message);
            assert.ok(messages.some((m: string) => m.startsWith('The chapter "Bare chapter" shows buyers nothing')));
            assert.ok(messages.some((m: string) => m.startsWith('The collection "Nothing yet" shows buyers nothing')));

            // Each fix a message names: prose for the chapter, a spot buyers can open for the collections.
            await made(api, 'update_chapter', { collectionId: bare.collectionId, body: ['The lakes in a day.'] });
            await made(api, 'update_spot', { spotId: mill.spotId, archived: false });
            assert.deepEqual(await found(api, productId, 'chapter_empty'), ['Nothing yet members']);
            assert.ok(lake.spotKey);
          });
        });

        it('place_without_position: a map link or the place it is inside is a position', async () => {
          await withClient(suite.h, line, suite.h.alice.writeKey, async (api) => {
            const productId = await newGuide(api, 'Places');
            const place = (name: string, fields: Record<string, unknown> = {}) =>
              made(api, 'create_facility', { productId, kind: 'food', name, ...fields });
            const museum = await place('Museum', { lat: 46.36, lon: 14.09 });
            await place('Museum cafe', { insideId: museum.facilityId });
            await place('Kiosk', { mapsUrl: 'https://www.google.com/maps/place/Bled' });
            const hut = await place('Hut');
            const inside = await place('Hut bar', { insideId: hut.facilityId });
            assert.deepEqual(await found(api, productId, 'place_without_position'), ['Hut bar lat', 'Hut lat']);
            await made(api, 'update_facility', { facilityId: hut.facilityId, lat: 46.4, lon: 13.8 });
            assert.deepEqual(await found(api, productId, 'place_without_position'), [], 'the bar is in the hut');
            await made(api, 'update_facility', { facilityId: inside.facilityId, insideId: null });
            assert.deepEqual(await found(api, productId, 'place_without_position'), ['Hut bar lat']);
          });
        });

        it('photo_far_from_spot: a photo of the spot from afar or of the way there is not flagged; a detail is', async () => {
          await withClient(suite.h, line, suite.h.alice.writeKey, async (api) => {
            const productId = await newGuide(api, 'Photos');
            const spot = await made(api, 'create_spot', { productId, name: 'Lake', lat: 46.3, lon: 13.9 });
            const upload = await uploadRaw(
              suite.h,
              suite.h.alice.writeKey,
              await flat(30, 20).png().toBuffer(),
              'image/png',
              {
                productId,
                spotId: spot.spotId,
                credit: 'Ana Trails',
              },
            );
            assert.equal(upload.status, 201, JSON.stringify(upload.body));
            const mediaId = upload.body.mediaId as string;
            const far = { lat: 46.4, lon: 13.9, precision: 'gps' };
            await made(api, 'update_media', { mediaId, takenAt: far, shows: { kind: 'detail' } });
            assert.equal((await found(api, productId, 'photo_far_from_spot')).length, 1);
            await made(api, 'update_media', { mediaId, shows: { kind: 'approach' } });
            assert.deepEqual(await found(api, productId, 'photo_far_from_spot'), []);
            await made(api, 'update_media', {
              mediaId,
              shows: null,
              takenAt: { lat: 46.301, lon: 13.9, precision: 'gps' },
            });
            assert.deepEqual(await found(api, productId, 'photo_far_from_spot'), [], 'a corrected fix clears it too');
          });
        });

        it('routes: their fees, notices and review dates are read like those of spots and places', async () => {
          await withClient(suite.h, line, suite.h.alice.writeKey, async (api) => {
            const productId = await newGuide(api, 'Routes');
            const route = await made(api, 'create_route', {
              productId,
              name: 'Lake road',
              reviewBy: '2026-11-01',
              fees: [{ label: 'Toll', amount: 3, currency: 'EUR', checkedOn: TODAY, validUntil: '2026-10-31' }],
            });
            assert.deepEqual(await found(api, productId, 'review_due'), ['Lake road reviewBy']);
            assert.deepEqual(await found(api, productId, 'fee_expired'), ['Lake road fees[0]']);
            await made(api, 'update_route', {
              routeId: route.routeId,
              reviewBy: '2027-06-01',
              fees: [{ label: 'Toll', amount: 3, currency: 'EUR', checkedOn: TODAY }],
            });
            assert.deepEqual(await found(api, productId, 'review_due'), []);
            assert.deepEqual(await found(api, productId, 'fee_expired'), []);
          });
        });

        it('fee_unchecked: areas and places too, with the write that fixes each named', async () => {
          await withClient(suite.h, line, suite.h.alice.writeKey, async (api) => {
            const productId = await newGuide(api, 'Fees');
            await made(api, 'set_area', { productId, name: 'Park', fees: [{ label: 'Entry', free: true }] });
            await made(api, 'create_facility', {
              productId,
              kind: 'parking',
              name: 'Car park',
              lat: 46.3,
              lon: 13.9,
              fees: [{ label: 'Day', amount: 8, currency: 'EUR', checkedOn: '2025-06-01' }],
            });
            const findings = (await made(api, 'get_guide_readiness', { productId, code: 'fee_unchecked' })).findings;
            const byName = new Map(findings.map((f: any) => [f.where.name, f.message as string]));
            assert.match(byName.get('Park') as string, /never checked.*set_area/);
            assert.match(byName.get('Car park') as string, /last checked on 2025-06-01.*update_facility/);
          });
        });
      });
    }
  });
}
