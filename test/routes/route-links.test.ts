import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { assertError, assertOk } from '../helpers/answers.ts';
import { type Api, apiFor, describeOverTransports } from '../helpers/api.ts';
import { newGuide } from '../helpers/fixtures.ts';

async function addSpots(api: Api, productId: string, keys: string[]): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  for (let i = 0; i < keys.length; i += 25) {
    const spots = keys.slice(i, i + 25).map((spotKey) => ({ spotKey, name: spotKey }));
    const a = await api.call('upsert_spots', { productId, spots });
    assertOk(a);
    for (const spot of a.body.spots) ids[spot.spotKey] = spot.spotId;
  }
  return ids;
}

await describeOverTransports(
  'route links: spots and places',
  (suite, t) => {
    const { apis } = suite;
    let productId: string;
    let spotIds: Record<string, string>;
    before(async () => {
      productId = await newGuide(apis[t], `${t} links`);
      spotIds = await addSpots(apis[t], productId, ['a', 'b', 'c', 'd', 'e']);
    });
    const call = (name: string, args: Record<string, unknown> = {}) => apis[t].call(name, args);
    const newRoute = async (name: string) => (await call('create_route', { productId, name })).body.routeId as string;
    const newHike = async (name: string) => (await call('create_hike', { productId, name })).body.hikeId as string;
    const routeOf = async (routeId: string) => {
      const routes = (await call('list_routes', { productId })).body.routes as any[];
      const hikes = (await call('list_hikes', { productId })).body.hikes as any[];
      return routes.find((r) => r.routeId === routeId) ?? hikes.find((h) => h.hikeId === routeId);
    };
    const newPlace = async (name: string, guide = productId) =>
      (await call('create_facility', { productId: guide, kind: 'parking', name })).body.facilityId as string;

    it('set_route_spots: the spots in order, full replacement, on routes and hikes alike', async () => {
      for (const routeId of [await newRoute('Spots route'), await newHike('Spots hike')]) {
        const a = await call('set_route_spots', { routeId, spotKeys: ['c', 'a', 'b'] });
        assertOk(a);
        assert.deepEqual(a.body, { ok: true, routeId, spotCount: 3 }, 'compact: the keys sent are not echoed');
        const full = await call('set_route_spots', { routeId, spotKeys: ['c', 'a', 'b'], answer: 'full' });
        assert.deepEqual(full.body, { ok: true, routeId, spotCount: 3, spotKeys: ['c', 'a', 'b'] });
        assert.deepEqual((await routeOf(routeId)).spotKeys, ['c', 'a', 'b']);
        assertOk(await call('set_route_spots', { routeId, spotKeys: ['e'] }));
        assert.deepEqual((await routeOf(routeId)).spotKeys, ['e']);
        assertOk(await call('set_route_spots', { routeId, spotKeys: [] }));
        assert.deepEqual((await routeOf(routeId)).spotKeys, []);
      }
    });

    it('set_route_spots refuses a repeat, an unknown key and archived spots pass', async () => {
      const routeId = await newRoute('Refusals');
      assertOk(await call('set_route_spots', { routeId, spotKeys: ['a'] }));
      assertError(
        await call('set_route_spots', { routeId, spotKeys: ['a', 'b', 'a'] }),
        'invalid_request',
        'spotKeys[2]',
      );
      assertError(
        await call('set_route_spots', { routeId, spotKeys: ['a', 'nope'] }),
        'invalid_request',
        'spotKeys[1]',
      );
      assert.deepEqual((await routeOf(routeId)).spotKeys, ['a'], 'a refusal wrote nothing');
      assertOk(await call('update_spot', { spotId: spotIds.d, archived: true }));
      assertOk(await call('set_route_spots', { routeId, spotKeys: ['d'] }));
      assertOk(await call('update_spot', { spotId: spotIds.d, archived: false }));
    });

    it("set_spot_routes: a full replacement of the spot's routes; each route keeps the order of its other spots", async () => {
      const one = await newRoute('One');
      const two = await newHike('Two');
      const three = await newRoute('Three');
      assertOk(await call('set_route_spots', { routeId: one, spotKeys: ['a', 'b', 'c'] }));
      assertOk(await call('set_route_spots', { routeId: two, spotKeys: ['c', 'd'] }));
      const a = await call('set_spot_routes', { spotId: spotIds.b, routeIds: [three, two] });
      assertOk(a);
      assert.deepEqual(a.body, { ok: true, spotId: spotIds.b, routeCount: 2 }, 'compact: the ids sent are not echoed');
      assert.deepEqual((await routeOf(one)).spotKeys, ['a', 'c'], 'left one');
      assert.deepEqual((await routeOf(two)).spotKeys, ['c', 'd', 'b'], 'joined two at its end');
      assert.deepEqual((await routeOf(three)).spotKeys, ['b']);
      const again = await call('set_spot_routes', { spotId: spotIds.c, routeIds: [two, one], answer: 'full' });
      assert.deepEqual(again.body, { ok: true, spotId: spotIds.c, routeCount: 2, routeIds: [one, two] });
      assert.deepEqual((await routeOf(two)).spotKeys, ['c', 'd', 'b'], 'kept its place on two');
      assert.deepEqual((await routeOf(one)).spotKeys, ['a', 'c']);
      assertOk(await call('set_spot_routes', { spotId: spotIds.b, routeIds: [] }));
      assert.deepEqual((await routeOf(two)).spotKeys, ['c', 'd']);
      assert.deepEqual((await routeOf(three)).spotKeys, []);
    });

    it("set_spot_routes refuses a repeat, an unknown id and another guide's route", async () => {
      const one = await newRoute('Mine');
      const otherGuide = await newGuide(apis[t], 'Other guide');
      const foreign = (await call('create_route', { productId: otherGuide, name: 'Elsewhere' })).body.routeId;
      const spotId = spotIds.e;
      assertError(await call('set_spot_routes', { spotId, routeIds: [one, one] }), 'invalid_request', 'routeIds[1]');
      assertError(
        await call('set_spot_routes', { spotId, routeIds: [one, 'rt_nope'] }),
        'invalid_request',
        'routeIds[1]',
      );
      assertError(await call('set_spot_routes', { spotId, routeIds: [foreign] }), 'invalid_request', 'routeIds[0]');
      assertError(
        await call('set_spot_routes', { spotId, routeIds: Array.from({ length: 101 }, (_, i) => `rt_${i}`) }),
        'invalid_request',
        'routeIds',
      );
      assert.deepEqual((await routeOf(one)).spotKeys, []);
    });

    it('set_route_facilities: each place once, listed by ascending order, answers edges', async () => {
      const hikeId = await newHike('Places hike');
      const [p1, p2, p3] = [await newPlace('P1'), await newPlace('P2'), await newPlace('P3')];
      const a = await call('set_route_facilities', {
        routeId: hikeId,
        facilities: [
          { facilityId: p1, order: 10 },
          { facilityId: p2, order: -2.5 },
          { facilityId: p3, order: 10 },
        ],
      });
      assertOk(a);
      assert.deepEqual(a.body, { ok: true, routeId: hikeId, edges: 3 });
      assert.deepEqual((await routeOf(hikeId)).facilities, [
        { facilityId: p2, order: -2.5 },
        { facilityId: p1, order: 10 },
        { facilityId: p3, order: 10 },
      ]);
      const dup = await call('set_route_facilities', {
        routeId: hikeId,
        facilities: [
          { facilityId: p1, order: 1 },
          { facilityId: p1, order: 2 },
        ],
      });
      assertError(dup, 'invalid_request', 'facilities[1]');
      const otherGuide = await newGuide(apis[t], 'Other places');
      const foreign = await newPlace('Foreign', otherGuide);
      assertError(
        await call('set_route_facilities', { routeId: hikeId, facilities: [{ facilityId: foreign, order: 1 }] }),
        'invalid_request',
        'facilities[0].facilityId',
      );
      assertError(
        await call('set_route_facilities', { routeId: hikeId, facilities: [{ facilityId: p1 }] }),
        'invalid_argument',
        'facilities[0].order',
      );
      assert.equal((await routeOf(hikeId)).facilities.length, 3, 'refusals wrote nothing');
      const cleared = await call('set_route_facilities', { routeId: hikeId, facilities: [] });
      assert.equal(cleared.body.edges, 0);
    });
  },
  (suite) => {
    const { apis } = suite;

    it('set_route_facilities takes 50 places and refuses 51', async () => {
      const api = apis.rest;
      const productId = await newGuide(api, 'Fifty places');
      const routeId = (await api.call('create_route', { productId, name: 'Long road' })).body.routeId;
      const places: string[] = [];
      for (let i = 0; i < 51; i++) {
        places.push(
          (await api.call('create_facility', { productId, kind: 'food', name: `Stop ${i}` })).body.facilityId,
        );
      }
      const facilities = places.map((facilityId, order) => ({ facilityId, order }));
      assertOk(await api.call('set_route_facilities', { routeId, facilities: facilities.slice(0, 50) }));
      assertError(await api.call('set_route_facilities', { routeId, facilities }), 'invalid_request', 'facilities');
    });

    it('set_route_spots takes 200 spots and refuses 201', async () => {
      const api = apis.mcp;
      const productId = await newGuide(api, 'Two hundred');
      const keys = Array.from({ length: 201 }, (_, i) => `s${i}`);
      await addSpots(apis.rest, productId, keys.slice(0, 200));
      const routeId = (await api.call('create_route', { productId, name: 'Long' })).body.routeId;
      assertOk(await api.call('set_route_spots', { routeId, spotKeys: keys.slice(0, 200) }));
      assertError(await api.call('set_route_spots', { routeId, spotKeys: keys }), 'invalid_request', 'spotKeys');
    });

    it('deleting a spot, a place or a route removes the links; spots and places stay', async () => {
      const api = apis.rest;
      const { db } = suite.h.store;
      const productId = await newGuide(api, 'Cascades');
      const ids = await addSpots(api, productId, ['x', 'y']);
      const place = (await api.call('create_facility', { productId, kind: 'hut', name: 'Hut' })).body.facilityId;
      const keep = (await api.call('create_facility', { productId, kind: 'hut', name: 'Kept' })).body.facilityId;
      const routeId = (await api.call('create_route', { productId, name: 'R' })).body.routeId;
      const hikeId = (await api.call('create_hike', { productId, name: 'H' })).body.hikeId;
      for (const id of [routeId, hikeId]) {
        assertOk(await api.call('set_route_spots', { routeId: id, spotKeys: ['x', 'y'] }));
        const facilities = [
          { facilityId: place, order: 1 },
          { facilityId: keep, order: 2 },
        ];
        assertOk(await api.call('set_route_facilities', { routeId: id, facilities }));
      }
      assertOk(await api.call('delete_spot', { spotId: ids.x }));
      assertOk(await api.call('delete_facility', { facilityId: place }));
      const route = (await api.call('list_routes', { productId })).body.routes[0];
      assert.deepEqual(route.spotKeys, ['y']);
      assert.deepEqual(route.facilities, [{ facilityId: keep, order: 2 }]);
      assertOk(await api.call('delete_route', { routeId }));
      assertOk(await api.call('delete_hike', { hikeId }));
      const spotLinks = await db
        .selectFrom('route_spots')
        .selectAll()
        .where('route_id', 'in', [routeId, hikeId])
        .execute();
      const placeLinks = await db
        .selectFrom('route_facilities')
        .selectAll()
        .where('route_id', 'in', [routeId, hikeId])
        .execute();
      assert.deepEqual([spotLinks, placeLinks], [[], []]);
      assert.equal((await api.call('list_spots', { productId })).body.count, 1);
      assert.equal((await api.call('list_facilities', { productId })).body.facilities.length, 1);
    });

    it('a read-only key may list but not link', async () => {
      const reader = apiFor(suite.h, 'rest', suite.h.alice.readKey);
      const productId = await newGuide(apis.rest, 'Read only');
      const routeId = (await apis.rest.call('create_route', { productId, name: 'R' })).body.routeId;
      assertOk(await reader.call('list_routes', { productId }));
      assertOk(await reader.call('list_hikes', { productId }));
      assertError(await reader.call('set_route_spots', { routeId, spotKeys: [] }), 'api_scope_required');
      await reader.close();
    });
  },
);
