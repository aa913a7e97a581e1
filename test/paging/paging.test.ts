import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { assertError, assertOk } from '../helpers/answers.ts';
import { type Api, noRateLimits, transports, useServer } from '../helpers/api.ts';
import { testDialects } from '../helpers/dialects.ts';
import { newGuide } from '../helpers/fixtures.ts';
import { flat } from '../helpers/images.ts';
import { uploadForm } from '../helpers/uploads.ts';

/**
 * Every list that grows with a guide answers a page at a time: an opaque cursor, a limit, the total
 * and the next page's cursor beside the specification's own fields; a compact view and filters to
 * find records without reading them whole. Over REST and MCP, on both stores.
 */

const SPOTS = 130;
const COMPACT_SPOT = ['archived', 'areaId', 'lat', 'lon', 'name', 'spotId', 'spotKey'];

/** Every item of a list, page after page, checking each page's paging fields on the way. */
async function walk(api: Api, name: string, field: string, args: Record<string, unknown>): Promise<any[]> {
  const items: any[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const a = await api.call(name, { ...args, ...(cursor === undefined ? {} : { cursor }) });
    assertOk(a);
    const page = a.body[field] as any[];
    if (a.body.count !== undefined) assert.equal(a.body.count, page.length, `${name} count is this page's`);
    if (args.limit !== undefined) assert.ok(page.length <= Number(args.limit), `${name} page within its limit`);
    items.push(...page);
    cursor = a.body.nextCursor;
    assert.ok(cursor === undefined || page.length > 0, `${name} page with a cursor holds items`);
    assert.ok(++pages < 500, `${name} ends`);
    if (cursor === undefined) assert.equal(a.body.total, items.length, `${name} total is every item`);
  } while (cursor !== undefined);
  return items;
}

for (const { dialect, skip } of await testDialects()) {
  describe(`paging of long lists (${dialect})`, { skip }, () => {
    const suite = useServer({ dialect, env: noRateLimits });

    for (const t of transports) {
      describe(`over ${t}`, () => {
        const call = (name: string, args: Record<string, unknown> = {}) => suite.apis[t].call(name, args);
        let productId: string;
        let areaId: string;
        let collectionId: string;

        before(async () => {
          productId = await newGuide(suite.apis[t], `${t} Paging`);
          const area = await call('set_area', { productId, name: 'Triglav National Park' });
          assertOk(area);
          areaId = area.body.area.id;
          assert.equal(typeof areaId, 'string');
          for (let start = 0; start < SPOTS; start += 25) {
            const spots = Array.from({ length: Math.min(25, SPOTS - start) }, (_, j) => {
              const i = start + j;
              return {
                spotKey: `spot-${String(i).padStart(3, '0')}`,
                name: i % 10 === 0 ? `Ärger Falls ${i}` : `Lake ${i}`,
                lat: 46 + i / 1000,
                lon: 13.8,
                description: 'A long way round the lake. '.repeat(20),
                ...(i % 3 === 0 ? { areaId } : {}),
                ...(i % 7 === 0 ? { archived: true } : {}),
              };
            });
            assertOk(await call('upsert_spots', { productId, spots }));
          }
          const chapter = await call('create_chapter', { productId, name: 'Waterfalls' });
          assertOk(chapter, 201);
          collectionId = chapter.body.collectionId;
          const members = ['spot-120', 'spot-010', 'spot-050'].map((spotKey) => ({ spotKey }));
          assertOk(await call('set_chapter_members', { collectionId, members }));
        });

        it('list_spots: the default page fits, says how many in all and how to read on', async () => {
          const a = await call('list_spots', { productId });
          assertOk(a);
          const live = SPOTS - Math.ceil(SPOTS / 7);
          assert.equal(a.body.spots.length, 50);
          assert.equal(a.body.count, 50);
          assert.equal(a.body.total, live);
          assert.equal(typeof a.body.nextCursor, 'string');
          assert.equal(a.body.spots[0].description.length > 100, true, 'full records by default');
        });

        it('list_spots: walking the pages gives every spot once, in guide order', async () => {
          const all = await walk(suite.apis[t], 'list_spots', 'spots', { productId, limit: 17, includeArchived: true });
          assert.equal(all.length, SPOTS);
          assert.deepEqual(
            all.map((s) => s.spotKey),
            Array.from({ length: SPOTS }, (_, i) => `spot-${String(i).padStart(3, '0')}`),
          );
          const orders = all.map((s) => s.order);
          assert.deepEqual(
            orders,
            orders.toSorted((x, y) => x - y),
          );
        });

        it('list_spots view compact: only the fields that pick a spot, and more per page', async () => {
          const all = await walk(suite.apis[t], 'list_spots', 'spots', { productId, view: 'compact', limit: 500 });
          assert.equal(all.length, SPOTS - Math.ceil(SPOTS / 7));
          for (const spot of all) assert.deepEqual(Object.keys(spot).sort(), COMPACT_SPOT);
          const first = all[0];
          assert.deepEqual(first, {
            spotId: first.spotId,
            spotKey: 'spot-001',
            name: 'Lake 1',
            lat: 46.001,
            lon: 13.8,
            areaId: null,
            archived: false,
          });
        });

        it('list_spots filters by area, chapter and name (any case, beyond ASCII), totals follow', async () => {
          const inArea = await walk(suite.apis[t], 'list_spots', 'spots', { productId, areaId, limit: 10 });
          const expected = Array.from({ length: SPOTS }, (_, i) => i).filter((i) => i % 3 === 0 && i % 7 !== 0);
          assert.deepEqual(
            inArea.map((s) => s.spotKey),
            expected.map((i) => `spot-${String(i).padStart(3, '0')}`),
          );
          const members = await walk(suite.apis[t], 'list_spots', 'spots', {
            productId,
            collectionId,
            view: 'compact',
          });
          assert.deepEqual(
            members.map((s) => s.spotKey),
            ['spot-010', 'spot-050', 'spot-120'],
            'guide order',
          );
          const named = await walk(suite.apis[t], 'list_spots', 'spots', {
            productId,
            nameContains: 'äRGER f',
            includeArchived: true,
            limit: 5,
          });
          assert.equal(named.length, SPOTS / 10);
          assert.ok(named.every((s) => s.name.startsWith('Ärger Falls')));
          const percent = await call('list_spots', { productId, nameContains: '%' });
          assertOk(percent);
          assert.equal(percent.body.total, 0, 'a % is a character, not a wildcard');
        });

        it('refuses a cursor of other filters, a made-up cursor, a limit out of range, a foreign chapter', async () => {
          const first = await call('list_spots', { productId, limit: 5 });
          assertOk(first);
          const cursor = first.body.nextCursor;
          assertError(await call('list_spots', { productId, areaId, cursor }), 'invalid_argument', 'cursor');
          assertError(await call('list_chapters', { productId, cursor }), 'invalid_argument', 'cursor');
          assertError(
            await call('list_spots', { productId, cursor: 'bm90LWEtY3Vyc29y' }),
            'invalid_argument',
            'cursor',
          );
          const over = await call('list_spots', { productId, limit: 501 });
          assert.equal(over.ok, false);
          assert.match(over.body.error.message, /^limit:/);
          assert.equal((await call('list_spots', { productId, limit: 0 })).ok, false);
          const other = await newGuide(suite.apis[t], `${t} Other`);
          const foreign = await call('list_spots', { productId: other, collectionId });
          assertError(foreign, 'not_found');
          // The same cursor with another view or limit reads on: the order is the same.
          const compact = await call('list_spots', { productId, cursor, view: 'compact', limit: 3 });
          assertOk(compact);
          assert.deepEqual(
            compact.body.spots.map((s: { spotKey: string }) => s.spotKey),
            ['spot-006', 'spot-008', 'spot-009'],
          );
        });

        it('a write between two pages shows on the next page: no page is served stale', async () => {
          const guide = await newGuide(suite.apis[t], `${t} Edits`);
          const spots = Array.from({ length: 6 }, (_, i) => ({ spotKey: `e-${i}`, name: `Edit ${i}` }));
          assertOk(await call('upsert_spots', { productId: guide, spots }));
          const one = await call('list_spots', { productId: guide, limit: 3 });
          assert.equal(one.body.total, 6);
          const two = await call('list_spots', { productId: guide, limit: 3, cursor: one.body.nextCursor });
          const target = two.body.spots[0];
          assertOk(await call('update_spot', { spotId: target.spotId, name: 'Renamed' }));
          assertOk(await call('create_spot', { productId: guide, name: 'Seventh' }), 201);
          const again = await call('list_spots', { productId: guide, limit: 3, cursor: one.body.nextCursor });
          assert.equal(again.body.spots[0].name, 'Renamed');
          assert.equal(again.body.total, 7);
          assert.equal(typeof again.body.nextCursor, 'string', 'the new spot follows');
          assertOk(await call('delete_spot', { spotId: target.spotId }));
          const gone = await call('list_spots', { productId: guide, limit: 3, cursor: one.body.nextCursor });
          assert.deepEqual(
            gone.body.spots.map((s: { name: string }) => s.name),
            ['Edit 4', 'Edit 5', 'Seventh'],
          );
        });

        it('places, routes, hikes, chapters and itineraries page alike, with compact views and name filters', async () => {
          const guide = await newGuide(suite.apis[t], `${t} Others`);
          const names = ['Hut 10', 'hut 2', 'Älm', 'Zirbe', 'Bistro'];
          for (const name of names) {
            assertOk(await call('create_facility', { productId: guide, kind: 'food', name }), 201);
            assertOk(await call('create_route', { productId: guide, name }), 201);
            assertOk(await call('create_hike', { productId: guide, name }), 201);
            assertOk(await call('create_chapter', { productId: guide, name }), 201);
            assertOk(await call('create_itinerary', { productId: guide, name }), 201);
          }
          const lists = [
            {
              name: 'list_facilities',
              field: 'facilities',
              compact: ['facilityId', 'insideId', 'kind', 'lat', 'lon', 'name', 'type'],
            },
            { name: 'list_routes', field: 'routes', compact: ['distanceKm', 'durationMin', 'mode', 'name', 'routeId'] },
            {
              name: 'list_hikes',
              field: 'hikes',
              compact: ['difficulty', 'distanceKm', 'durationMin', 'hikeId', 'name'],
            },
            {
              name: 'list_chapters',
              field: 'chapters',
              compact: ['collectionId', 'kind', 'memberCount', 'name', 'order', 'slug', 'updatedAt'],
            },
            {
              name: 'list_itineraries',
              field: 'itineraries',
              compact: ['archived', 'dayCount', 'itineraryId', 'name', 'order', 'updatedAt'],
            },
          ];
          for (const list of lists) {
            const all = await walk(suite.apis[t], list.name, list.field, { productId: guide, limit: 2 });
            const expected = list.name === 'list_facilities' ? ['Älm', 'Bistro', 'hut 2', 'Hut 10', 'Zirbe'] : names;
            assert.deepEqual(
              all.map((r) => r.name),
              expected,
              list.name,
            );
            const compact = await walk(suite.apis[t], list.name, list.field, { productId: guide, view: 'compact' });
            for (const r of compact) assert.deepEqual(Object.keys(r).sort(), list.compact, list.name);
            const huts = await walk(suite.apis[t], list.name, list.field, { productId: guide, nameContains: 'HUT' });
            assert.deepEqual(huts.map((r) => r.name).sort(), ['Hut 10', 'hut 2'], list.name);
          }
        });

        it('list_areas lists the first 200 spot keys of an area and counts them all; list_spots areaId reads all', async () => {
          const guide = await newGuide(suite.apis[t], `${t} Crowded area`);
          const area = await call('set_area', { productId: guide, name: 'Everywhere' });
          const id = area.body.area.id;
          for (let start = 0; start < 210; start += 25) {
            const spots = Array.from({ length: Math.min(25, 210 - start) }, (_, j) => ({
              spotKey: `c-${start + j}`,
              name: `Crowded ${start + j}`,
              areaId: id,
            }));
            assertOk(await call('upsert_spots', { productId: guide, spots }));
          }
          const listed = (await call('list_areas', { productId: guide })).body.areas[0];
          assert.equal(listed.spotCount, 210);
          assert.deepEqual(
            listed.spotKeys,
            Array.from({ length: 200 }, (_, i) => `c-${i}`),
          );
          const all = await walk(suite.apis[t], 'list_spots', 'spots', {
            productId: guide,
            areaId: id,
            view: 'compact',
          });
          assert.equal(all.length, 210);
        });

        it('list_guides pages the creator’s guides, most recently changed first, compact on request', async () => {
          const all = await walk(suite.apis[t], 'list_guides', 'guides', { limit: 2 });
          assert.ok(all.length >= 3);
          const stamps = all.map((g) => g.updatedAt);
          assert.deepEqual(
            stamps,
            stamps.toSorted((x, y) => y - x),
          );
          assert.equal(new Set(all.map((g) => g.productId)).size, all.length);
          const compact = await walk(suite.apis[t], 'list_guides', 'guides', {
            view: 'compact',
            nameContains: 'paging',
          });
          assert.ok(compact.some((g) => g.name === `${t} Paging`));
          for (const g of compact) {
            assert.match(g.name, /paging/i);
            assert.deepEqual(Object.keys(g).sort(), ['name', 'productId', 'slug', 'status', 'updatedAt']);
          }
        });

        it('the link report and stale notices page too', async () => {
          const links = await walk(suite.apis[t], 'get_link_report', 'links', { productId, limit: 1 });
          assert.equal(links.length, 0);
          const guide = await newGuide(suite.apis[t], `${t} Links`);
          const spots = Array.from({ length: 7 }, (_, i) => ({
            spotKey: `l-${i}`,
            name: `Linked ${i}`,
            links: [{ kind: 'official', url: `https://example.com/${i}` }],
            reviewBy: '2020-01-01',
          }));
          assertOk(await call('upsert_spots', { productId: guide, spots }));
          const report = await walk(suite.apis[t], 'get_link_report', 'links', { productId: guide, limit: 3 });
          assert.deepEqual(
            report.map((l) => l.url),
            spots.map((s) => s.links[0]?.url),
          );
          const notices = await walk(suite.apis[t], 'list_stale_notices', 'notices', { productId: guide, limit: 2 });
          assert.equal(notices.filter((n) => n.reason === 'review_due').length, 7);
        });

        it('stale notices renewed while an assistant reads them make the next page skip nothing', async () => {
          const guide = await newGuide(suite.apis[t], `${t} Renewals`);
          const spots = Array.from({ length: 6 }, (_, i) => ({
            spotKey: `r-${i}`,
            name: `Renewed ${i}`,
            reviewBy: `2020-01-0${i + 1}`,
          }));
          assertOk(await call('upsert_spots', { productId: guide, spots }));
          const first = await call('list_stale_notices', { productId: guide, limit: 2 });
          assertOk(first);
          assert.deepEqual(
            first.body.notices.map((n: any) => n.name),
            ['Renewed 0', 'Renewed 1'],
          );
          // The assistant renews what it read, then asks for the next page.
          const renewed = spots.slice(0, 2).map((s) => ({ ...s, reviewBy: '2999-01-01' }));
          assertOk(await call('upsert_spots', { productId: guide, spots: renewed }));
          const rest = await walk(suite.apis[t], 'list_stale_notices', 'notices', {
            productId: guide,
            limit: 2,
            cursor: first.body.nextCursor,
          });
          assert.deepEqual(
            rest.map((n) => n.name),
            ['Renewed 2', 'Renewed 3', 'Renewed 4', 'Renewed 5'],
          );
        });
      });
    }

    it('list_media pages a guide’s photos, compact on request', async () => {
      const api = suite.apis.rest;
      const productId = await newGuide(api, 'Photos');
      const small = await flat(8, 8).png().toBuffer();
      const files = Array.from({ length: 6 }, () => ({ bytes: small, type: 'image/png' }));
      const up = await uploadForm(suite.h, suite.h.alice.writeKey, '/media/upload-batch', files, { productId });
      assert.equal(up.status, 201, JSON.stringify(up.body));
      for (const t of transports) {
        const all = await walk(suite.apis[t], 'list_media', 'media', { productId, limit: 4 });
        assert.deepEqual(
          all.map((m) => m.mediaId),
          up.body.media.map((m: { mediaId: string }) => m.mediaId),
        );
        const compact = await walk(suite.apis[t], 'list_media', 'media', { productId, view: 'compact' });
        assert.deepEqual(Object.keys(compact[0]).sort(), [
          'alt',
          'caption',
          'credit',
          'mediaId',
          'order',
          'spotId',
          'spotKey',
        ]);
      }
    });
  });
}
