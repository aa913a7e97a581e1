import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { assertError, assertOk } from '../helpers/answers.ts';
import { apiFor, transports, useServer } from '../helpers/api.ts';
import { testDialects } from '../helpers/dialects.ts';
import { newGuide } from '../helpers/fixtures.ts';

/** Sub-types by kind as the specification lists them; the default is named separately. */
const typesByKind: Record<string, { types: string[]; default: string }> = {
  hut: {
    types: ['hotel', 'guesthouse', 'hostel', 'hut', 'campsite', 'rental', 'liveaboard', 'pontoon'],
    default: 'hut',
  },
  cable_car: {
    types: [
      'cable_car',
      'chairlift',
      'funicular',
      'cog_railway',
      'train',
      'bus',
      'ferry',
      'shuttle',
      'flight',
      'helicopter',
      'tram',
      'metro',
      'taxi',
      'bike_rental',
      'jeep',
      'elevator',
      'toboggan',
      'hub',
    ],
    default: 'cable_car',
  },
  activity: {
    types: ['guided_tour', 'boat_tour', 'balloon', 'scenic_flight', 'jeep_safari', 'gear_rental'],
    default: 'guided_tour',
  },
  food: { types: ['restaurant', 'cafe', 'bar', 'bakery', 'grocery', 'market', 'picnic_site'], default: 'restaurant' },
  parking: { types: ['parking_lot', 'parking_garage', 'street', 'campervan'], default: 'parking_lot' },
};

const ids = (places: Array<{ facilityId: string }>) => places.map((p) => p.facilityId);

for (const { dialect, skip } of await testDialects()) {
  describe(`places: create, list, delete, nesting, spotKeys (${dialect})`, { skip }, () => {
    const suite = useServer({ dialect });
    const apis = suite.apis;

    it('spotKeys: 200 fit, 201 are refused over REST and MCP', async () => {
      const guide = await newGuide(apis.rest, 'Two hundred');
      const keys = Array.from({ length: 200 }, (_, i) => `s${String(i).padStart(3, '0')}`);
      for (let i = 0; i < 200; i += 25) {
        const spots = keys.slice(i, i + 25).map((spotKey) => ({ spotKey, name: spotKey }));
        assertOk(await apis.rest.call('upsert_spots', { productId: guide, spots }));
      }
      const reversed = [...keys].reverse();
      const a = await apis.mcp.call('create_facility', {
        productId: guide,
        kind: 'hut',
        name: 'Big',
        spotKeys: reversed,
      });
      assertOk(a);
      assert.deepEqual(a.body.spotKeys, reversed);
      for (const t of transports) {
        const r = await apis[t].call('update_facility', {
          facilityId: a.body.facilityId,
          spotKeys: [...keys, 'one-more'],
        });
        assertError(r, 'invalid_request', 'spotKeys');
      }
      const listed = (await apis.rest.call('list_facilities', { productId: guide })).body.facilities;
      assert.deepEqual(listed[0].spotKeys, reversed);
    });

    for (const t of transports) {
      describe(`over ${t}`, () => {
        let productId: string;
        before(async () => {
          productId = await newGuide(apis[t], `${t} places`);
        });
        const call = (name: string, args: Record<string, unknown> = {}) => apis[t].call(name, args);
        const create = (args: Record<string, unknown>, guide = productId) =>
          call('create_facility', { productId: guide, ...args });
        const update = (facilityId: string, args: Record<string, unknown>) =>
          call('update_facility', { facilityId, ...args });
        const list = async (guide = productId) => {
          const a = await call('list_facilities', { productId: guide });
          assertOk(a);
          return a.body.facilities as any[];
        };

        it('create_facility with kind and name only: 201 with every default', async () => {
          suite.h.clock.set('2026-11-23T10:00:00Z');
          const a = await create({ kind: 'hut', name: 'Koča na Kredarici' });
          assertOk(a, 201);
          const { facilityId, ...place } = a.body;
          assert.match(facilityId, /^\S+$/);
          const at = Date.parse('2026-11-23T10:00:00Z');
          assert.deepEqual(place, {
            kind: 'hut',
            type: null,
            spotKeys: [],
            name: 'Koča na Kredarici',
            operator: null,
            description: null,
            costRaw: null,
            costUnit: null,
            openRaw: null,
            website: null,
            mapsUrl: null,
            extraProps: [],
            lat: null,
            lon: null,
            osmId: null,
            googlePlaceId: null,
            country: null,
            timeZone: null,
            links: [],
            bookingRequired: false,
            bookingUrl: null,
            extraKinds: [],
            insideId: null,
            needsParentTicket: false,
            conditions: null,
            parking: null,
            transport: null,
            activity: null,
            gatewayTown: null,
            status: null,
            fees: [],
            schedule: null,
            sources: [],
            reviewNotes: null,
            factsCheckedOn: null,
            reviewBy: null,
            createdAt: at,
            updatedAt: at,
          });
          const listed = (await list()).find((p) => p.facilityId === facilityId);
          assert.deepEqual(listed, a.body);
          assertError(await create({ name: 'No kind' }), 'invalid_argument', 'kind');
          assertError(await create({ kind: 'hut' }), 'invalid_argument', 'name');
          assertError(await create({ kind: 'spa', name: 'X' }), 'invalid_argument', 'kind');
          assertError(await create({ kind: 'hut', name: '' }), 'invalid_request', 'name');
          assertError(await create({ kind: 'hut', name: '   ' }), 'invalid_request', 'name');
          assertError(await create({ kind: 'hut', name: 'X', wifi: true }), 'invalid_argument');
          assertError(await create({ kind: 'hut', name: 'X' }, 'gd_unknown'), 'not_found');
        });

        for (const [kind, { types, default: fallback }] of Object.entries(typesByKind)) {
          it(`kind ${kind}: every listed type is accepted, others refused naming the allowed types`, async () => {
            assert.ok(types.includes(fallback));
            for (const type of types) {
              const a = await create({ kind, name: `${kind} ${type}`, type });
              assertOk(a, 201);
              assert.equal(a.body.type, type);
            }
            const foreign = Object.entries(typesByKind)
              .find(([k]) => k !== kind)?.[1]
              .types.find((x) => !types.includes(x));
            for (const bad of ['spaceship', foreign]) {
              const r = await create({ kind, name: 'Bad type', type: bad });
              assertError(r, 'invalid_argument', 'type');
              for (const allowed of types) assert.ok(r.body.error.message.includes(allowed), r.body.error.message);
              assert.ok(r.body.error.message.includes(fallback));
            }
            const plain = (await create({ kind, name: `${kind} default` })).body;
            assert.equal(plain.type, null, `null reads as ${fallback}`);
            assertError(await update(plain.facilityId, { type: 'spaceship' }), 'invalid_argument', 'type');
            assert.equal((await update(plain.facilityId, { type: types.at(-1) })).body.type, types.at(-1));
            assert.equal((await update(plain.facilityId, { type: null })).body.type, null);
          });
        }

        it('extraKinds: values of kind, duplicates dropped in order, unknown refused, full replacement', async () => {
          const a = await create({
            kind: 'food',
            name: 'Hut with bar',
            extraKinds: ['hut', 'parking', 'hut', 'parking'],
          });
          assertOk(a, 201);
          assert.deepEqual(a.body.extraKinds, ['hut', 'parking']);
          assertError(
            await create({ kind: 'food', name: 'X', extraKinds: ['spa'] }),
            'invalid_argument',
            'extraKinds[0]',
          );
          const u = await update(a.body.facilityId, { extraKinds: ['activity'] });
          assert.deepEqual(u.body.extraKinds, ['activity']);
          assert.deepEqual((await update(a.body.facilityId, { extraKinds: [] })).body.extraKinds, []);
        });

        it('insideId nests one level: grandchildren, self, cycles, parents with children and unknown ids refused', async () => {
          const park = (await create({ kind: 'activity', name: 'Park' })).body.facilityId;
          const cafe = await create({ kind: 'food', name: 'Park café', insideId: park, needsParentTicket: true });
          assertOk(cafe, 201);
          assert.equal(cafe.body.insideId, park);
          assert.equal(cafe.body.needsParentTicket, true);
          const kiosk = cafe.body.facilityId;
          assertError(
            await create({ kind: 'food', name: 'Grandchild', insideId: kiosk }),
            'invalid_request',
            'insideId',
          );
          const lone = (await create({ kind: 'parking', name: 'Lone' })).body.facilityId;
          assertError(await update(lone, { insideId: kiosk }), 'invalid_request', 'insideId');
          assertError(await update(lone, { insideId: lone }), 'invalid_request', 'insideId');
          assertError(await update(park, { insideId: lone }), 'invalid_request', 'insideId');
          assertError(await update(park, { insideId: kiosk }), 'invalid_request', 'insideId');
          assertError(
            await create({ kind: 'food', name: 'X', insideId: 'fac_unknown' }),
            'invalid_request',
            'insideId',
          );
          const other = await newGuide(apis[t], `${t} other places`);
          const elsewhere = (await create({ kind: 'hut', name: 'Elsewhere' }, other)).body.facilityId;
          assertError(await update(lone, { insideId: elsewhere }), 'invalid_request', 'insideId');
          const bob = apiFor(suite.h, 'rest', suite.h.bob.writeKey);
          const bobGuide = await newGuide(bob, 'Bob places');
          const bobs = (await bob.call('create_facility', { productId: bobGuide, kind: 'hut', name: 'Bob' })).body;
          assertError(await update(lone, { insideId: bobs.facilityId }), 'invalid_request', 'insideId');
          const byId = new Map((await list()).map((p) => [p.facilityId, p]));
          assert.equal(byId.get(park).insideId, null);
          assert.equal(byId.get(lone).insideId, null);
          // A child may move to another top-level place, and null takes it out.
          assert.equal((await update(kiosk, { insideId: lone })).body.insideId, lone);
          assert.equal((await update(kiosk, { insideId: null })).body.insideId, null);
          assert.equal((await update(park, { insideId: lone })).body.insideId, lone, 'no children any more');
        });

        it('deleting a parent leaves its children with insideId null', async () => {
          const parent = (await create({ kind: 'hut', name: 'Parent' })).body.facilityId;
          const a = (await create({ kind: 'food', name: 'Child A', insideId: parent })).body.facilityId;
          const b = (await create({ kind: 'food', name: 'Child B', insideId: parent, needsParentTicket: true })).body;
          const del = await call('delete_facility', { facilityId: parent });
          assertOk(del);
          assert.deepEqual(del.body, { ok: true, facilityId: parent, deleted: true });
          const byId = new Map((await list()).map((p) => [p.facilityId, p]));
          assert.equal(byId.has(parent), false);
          assert.equal(byId.get(a).insideId, null);
          assert.equal(byId.get(b.facilityId).insideId, null);
          assert.equal(byId.get(b.facilityId).needsParentTicket, true);
          assert.equal(byId.get(b.facilityId).name, 'Child B');
        });

        it('spotKeys: order kept, duplicates and unknown keys refused by index, archived spots allowed', async () => {
          const guide = await newGuide(apis[t], `${t} place spots`);
          for (const spotKey of ['alpha', 'bravo', 'charlie', 'old']) {
            assertOk(await call('create_spot', { productId: guide, spotKey, name: spotKey }), 201);
          }
          const old = (await call('list_spots', { productId: guide })).body.spots.find(
            (s: { spotKey: string }) => s.spotKey === 'old',
          );
          assertOk(await call('update_spot', { spotId: old.spotId, archived: true }));
          const a = await create({ kind: 'parking', name: 'Lot', spotKeys: ['charlie', 'old', 'alpha'] }, guide);
          assertOk(a, 201);
          assert.deepEqual(a.body.spotKeys, ['charlie', 'old', 'alpha']);
          const dup = await create({ kind: 'parking', name: 'Dup', spotKeys: ['alpha', 'bravo', 'alpha'] }, guide);
          assertError(dup, 'invalid_request', 'spotKeys[2]');
          assert.match(dup.body.error.message, /alpha/);
          const unknown = await create({ kind: 'parking', name: 'Unknown', spotKeys: ['alpha', 'zulu'] }, guide);
          assertError(unknown, 'invalid_request', 'spotKeys[1]');
          assert.match(unknown.body.error.message, /zulu/);
          // A key of another guide is unknown here.
          assertOk(await call('create_spot', { productId, spotKey: 'foreign-key', name: 'F' }), 201);
          assertError(await update(a.body.facilityId, { spotKeys: ['foreign-key'] }), 'invalid_request', 'spotKeys[0]');
          assert.deepEqual((await list(guide))[0].spotKeys, ['charlie', 'old', 'alpha'], 'refusals changed nothing');
          const replaced = await update(a.body.facilityId, { spotKeys: ['bravo', 'charlie'] });
          assert.deepEqual(replaced.body.spotKeys, ['bravo', 'charlie']);
          assert.deepEqual((await update(a.body.facilityId, { name: 'Lot 2' })).body.spotKeys, ['bravo', 'charlie']);
          // delete_spot takes the spot out of the place's spotKeys.
          const bravo = (await call('list_spots', { productId: guide })).body.spots.find(
            (s: { spotKey: string }) => s.spotKey === 'bravo',
          );
          assertOk(await call('delete_spot', { spotId: bravo.spotId }));
          assert.deepEqual((await list(guide))[0].spotKeys, ['charlie']);
          assert.deepEqual((await update(a.body.facilityId, { spotKeys: [] })).body.spotKeys, []);
        });

        it('list_facilities orders by name without regard to case; own guide only', async () => {
          const guide = await newGuide(apis[t], `${t} ordering`);
          for (const name of ['beta', 'Delta', 'alpha', 'Charlie', 'échelle', 'Bravo']) {
            assertOk(await create({ kind: 'food', name }, guide), 201);
          }
          const a = await call('list_facilities', { productId: guide });
          assertOk(a);
          assert.equal(a.body.productId, guide);
          assert.deepEqual(
            a.body.facilities.map((p: { name: string }) => p.name),
            ['alpha', 'beta', 'Bravo', 'Charlie', 'Delta', 'échelle'],
          );
          assertError(await call('list_facilities', { productId: 'gd_unknown' }), 'not_found');
        });

        it('delete_facility: 404 afterwards, the spots it served stay', async () => {
          const guide = await newGuide(apis[t], `${t} deleting`);
          const spot = (await call('create_spot', { productId: guide, spotKey: 'lake', name: 'Lake' })).body;
          const place = (await create({ kind: 'hut', name: 'Gone', spotKeys: ['lake'] }, guide)).body.facilityId;
          const keep = (await create({ kind: 'hut', name: 'Kept', spotKeys: ['lake'] }, guide)).body.facilityId;
          suite.h.clock.set('2026-11-26T09:00:00Z');
          assertOk(await call('delete_facility', { facilityId: place }));
          assertError(await call('delete_facility', { facilityId: place }), 'not_found');
          assertError(await update(place, { name: 'Back' }), 'not_found');
          assert.deepEqual(ids(await list(guide)), [keep]);
          assert.deepEqual((await list(guide))[0].spotKeys, ['lake']);
          assertOk(await call('get_spot', { spotId: spot.spotId }));
          const g = (await call('get_guide', { productId: guide })).body;
          assert.equal(g.lastApiWriteAt, Date.parse('2026-11-26T09:00:00Z'));
          assertError(await call('delete_facility', { facilityId: 'fac_unknown' }), 'not_found');
        });

        it('a read-only key lists places but cannot write them', async () => {
          const ro = apiFor(suite.h, t, suite.h.alice.readKey);
          try {
            const id = (await create({ kind: 'hut', name: 'RO' })).body.facilityId;
            assertError(await ro.call('create_facility', { productId, kind: 'hut', name: 'No' }), 'api_scope_required');
            assertError(await ro.call('update_facility', { facilityId: id, name: 'No' }), 'api_scope_required');
            assertError(await ro.call('delete_facility', { facilityId: id }), 'api_scope_required');
            assert.ok(
              ids((await ro.call('list_facilities', { productId, nameContains: 'RO' })).body.facilities).includes(id),
            );
          } finally {
            await ro.close();
          }
        });
      });
    }
  });
}
