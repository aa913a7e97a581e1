import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { type Answer, assertError, assertOk } from '../helpers/answers.ts';
import { apiFor, transports, useServer } from '../helpers/api.ts';
import { testDialects } from '../helpers/dialects.ts';
import { guideOf, newGuide } from '../helpers/fixtures.ts';

const fullArea = {
  name: 'Triglav National Park',
  kind: 'park',
  note: 'Dogs on a lead.',
  season: 'Huts open June to September.',
  rules: [
    {
      text: 'Book the shuttle to the lake.',
      kind: 'reservation',
      months: [7, 8],
      appliesTo: 'car',
      bookingOpens: 'In April',
      sourceUrl: 'https://tnp.si/shuttle',
    },
  ],
  fees: [{ label: 'Parking', amount: 20, currency: 'EUR', per: 'vehicle' }],
  links: [{ kind: 'official', url: 'https://tnp.si' }],
  sources: [{ url: 'https://tnp.si/rules', title: 'Park rules' }],
  status: { state: 'partly_closed', note: 'Trail 3 closed', since: '2026-11-01', until: '2026-12-31' },
};

/** An area as answered with nothing set but its name: every list empty, no spot. */
const bareArea = (id: string, name: string) => ({
  id,
  name,
  rules: [],
  fees: [],
  links: [],
  sources: [],
  spotKeys: [],
  spotCount: 0,
});

for (const { dialect, skip } of await testDialects()) {
  describe(`areas: set_area, list_areas, delete_area (${dialect})`, { skip }, () => {
    const suite = useServer({ dialect });
    const apis = suite.apis;

    it('holds at most 50 areas: the 51st is invalid_request over REST and MCP, replacing still works', async () => {
      const guide = await newGuide(apis.rest, 'fifty');
      // 55 at once: the cap holds under concurrent calls too (each counts inside its own transaction).
      const burst = await Promise.all(
        Array.from({ length: 55 }, (_, i) => apis.rest.call('set_area', { productId: guide, name: `Area ${i}` })),
      );
      assert.equal(burst.filter((a) => a.ok).length, 50);
      for (const a of burst.filter((x) => !x.ok)) assertError(a, 'invalid_request');
      for (const t of transports) {
        const refused = await apis[t].call('set_area', { productId: guide, name: 'One too many' });
        assertError(refused, 'invalid_request');
        assert.match(refused.body.error.message, /50/);
      }
      const listed = (await apis.rest.call('list_areas', { productId: guide })).body;
      assert.equal(listed.count, 50);
      const first = listed.areas[0].id;
      assertOk(await apis.mcp.call('set_area', { productId: guide, areaId: first, name: 'Replaced at the cap' }));
      assertOk(await apis.mcp.call('delete_area', { productId: guide, areaId: first }));
      assert.equal((await apis.mcp.call('set_area', { productId: guide, name: 'Fits again' })).body.created, true);
      assertError(await apis.rest.call('set_area', { productId: guide, name: 'Full again' }), 'invalid_request');
    });

    for (const t of transports) {
      describe(`over ${t}`, () => {
        let productId: string;
        before(async () => {
          productId = await newGuide(apis[t], `${t} areas`);
        });
        const call = (name: string, args: Record<string, unknown> = {}) => apis[t].call(name, args);
        // These checks read the area from the answer: ask for it whole (compact-answers.test.ts holds the default).
        const setArea = (args: Record<string, unknown>, guide = productId) =>
          call('set_area', { productId: guide, answer: 'full', ...args });
        const listAreas = async (guide = productId) => {
          const a = await call('list_areas', { productId: guide });
          assertOk(a);
          return a.body;
        };

        it('creates an area: created true, AreaWithSpots with spotKeys [], listed and on the guide', async () => {
          suite.h.clock.set('2026-11-23T10:00:00Z');
          const a = await setArea(fullArea);
          assertOk(a);
          assert.equal(a.body.productId, productId);
          assert.equal(a.body.created, true);
          const { id, spotKeys, spotCount, ...rest } = a.body.area;
          assert.equal(spotCount, 0);
          assert.match(id, /^\S+$/);
          assert.deepEqual(spotKeys, []);
          assert.deepEqual(rest, { ...fullArea, fees: [{ ...fullArea.fees[0] }] });
          assert.equal('warnings' in a.body, false);

          suite.h.clock.advance(1); // list_areas is oldest first; one ms apart keeps the order certain
          const minimal = await setArea({ name: 'Bare' });
          assertOk(minimal);
          assert.deepEqual(minimal.body.area, bareArea(minimal.body.area.id, 'Bare'));
          assert.notEqual(minimal.body.area.id, id);

          const listed = await listAreas();
          assert.equal(listed.count, 2);
          assert.deepEqual(listed.areas[0], a.body.area);
          assert.deepEqual(listed.areas[1], minimal.body.area);
          const guide = await guideOf(apis[t], productId);
          assert.deepEqual(
            guide.areas.map((x: { id: string }) => x.id),
            [id, minimal.body.area.id],
          );
          assert.equal('spotKeys' in guide.areas[0], false, 'spotKeys only in the set_area reply and list_areas');
          assert.equal(guide.areas[0].note, fullArea.note);
        });

        it('replaces an area whole: fields left out are cleared, status included; created false', async () => {
          const id = (await setArea(fullArea)).body.area.id;
          suite.h.clock.set('2026-11-24T08:00:00Z');
          const a = await setArea({ areaId: id, name: 'Renamed' });
          assertOk(a);
          assert.equal(a.body.created, false);
          assert.deepEqual(a.body.area, bareArea(id, 'Renamed'));
          const stored = (await listAreas()).areas.find((x: { id: string }) => x.id === id);
          assert.deepEqual(stored, a.body.area);
          for (const field of ['status', 'note', 'season', 'kind']) assert.equal(field in stored, false, field);
          assert.equal((await guideOf(apis[t], productId)).lastApiWriteAt, Date.parse('2026-11-24T08:00:00Z'));
        });

        it('[] clears lists, a replace with new values swaps them', async () => {
          const id = (await setArea(fullArea)).body.area.id;
          const a = await setArea({ ...fullArea, areaId: id, rules: [], fees: [], links: [], sources: [] });
          assertOk(a);
          assert.deepEqual(
            [a.body.area.rules, a.body.area.fees, a.body.area.links, a.body.area.sources],
            [[], [], [], []],
          );
          assert.deepEqual(a.body.area.status, fullArea.status, 'status sent again is kept');
          const b = await setArea({ areaId: id, name: 'X', rules: [{ text: 'Permit needed', kind: 'permit' }] });
          assert.deepEqual(b.body.area.rules, [{ text: 'Permit needed', kind: 'permit' }]);
        });

        it('refuses status null (invalid_argument) and leaves the area as it was', async () => {
          const id = (await setArea(fullArea)).body.area.id;
          assertError(await setArea({ areaId: id, name: 'N', status: null }), 'invalid_argument', 'status');
          assertError(await setArea({ name: 'New', status: null }), 'invalid_argument', 'status');
          const stored = (await listAreas()).areas.find((x: { id: string }) => x.id === id);
          assert.deepEqual(stored.status, fullArea.status);
          assert.equal(stored.name, fullArea.name);
        });

        it('an unknown areaId, another guide of hers and another creator give 404 and change nothing', async () => {
          assertError(await setArea({ areaId: 'ar_doesnotexist', name: 'X' }), 'not_found');
          const other = await newGuide(apis[t], `${t} other`);
          const foreign = (await setArea({ name: 'Other guide area' }, other)).body.area.id;
          assertError(await setArea({ areaId: foreign, name: 'Hijack' }), 'not_found');
          assertError(await call('delete_area', { productId, areaId: foreign }), 'not_found');
          assert.equal((await listAreas(other)).areas[0].name, 'Other guide area');
          const bob = apiFor(suite.h, 'rest', suite.h.bob.writeKey);
          const bobGuide = await newGuide(bob, 'Bob');
          const bobArea = (await bob.call('set_area', { productId: bobGuide, name: 'Bob area' })).body.area.id;
          assertError(await setArea({ areaId: bobArea, name: 'Hijack' }), 'not_found');
          assertError(await setArea({ areaId: bobArea, name: 'Hijack' }, bobGuide), 'not_found');
          assert.equal((await bob.call('list_areas', { productId: bobGuide })).body.areas[0].name, 'Bob area');
          assertError(await call('delete_area', { productId, areaId: 'ar_doesnotexist' }), 'not_found');
        });

        const bounds: Array<[string, Record<string, unknown>, Record<string, unknown>, string]> = [
          ['name', { name: 'n'.repeat(100) }, { name: 'n'.repeat(101) }, 'name'],
          ['note', { note: 'n'.repeat(1000) }, { note: 'n'.repeat(1001) }, 'note'],
          ['season', { season: 's'.repeat(300) }, { season: 's'.repeat(301) }, 'season'],
          [
            'rules count',
            { rules: Array.from({ length: 20 }, (_, i) => ({ text: `Rule ${i}` })) },
            { rules: Array.from({ length: 21 }, (_, i) => ({ text: `Rule ${i}` })) },
            'rules',
          ],
          [
            'rule text',
            { rules: [{ text: 't'.repeat(300) }] },
            { rules: [{ text: 't'.repeat(301) }] },
            'rules[0].text',
          ],
          [
            'bookingOpens',
            { rules: [{ text: 'R', bookingOpens: 'b'.repeat(100) }] },
            { rules: [{ text: 'R', bookingOpens: 'b'.repeat(101) }] },
            'rules[0].bookingOpens',
          ],
          [
            'months 1..12',
            { rules: [{ text: 'R', months: [1, 12] }] },
            { rules: [{ text: 'R', months: [0] }] },
            'rules[0].months[0]',
          ],
          [
            'month 13',
            { rules: [{ text: 'R', months: [6] }] },
            { rules: [{ text: 'R', months: [6, 13] }] },
            'rules[0].months[1]',
          ],
          [
            'fees',
            { fees: Array.from({ length: 30 }, (_, i) => ({ label: `Fee ${i}`, free: true })) },
            { fees: Array.from({ length: 31 }, (_, i) => ({ label: `Fee ${i}`, free: true })) },
            'fees',
          ],
          [
            'links',
            { links: Array.from({ length: 12 }, (_, i) => ({ kind: 'other', value: `v${i}` })) },
            { links: Array.from({ length: 13 }, (_, i) => ({ kind: 'other', value: `v${i}` })) },
            'links',
          ],
          [
            'sources',
            { sources: Array.from({ length: 40 }, (_, i) => ({ title: `S${i}` })) },
            { sources: Array.from({ length: 41 }, (_, i) => ({ title: `S${i}` })) },
            'sources',
          ],
        ];
        for (const [label, fits, tooMuch, path] of bounds) {
          it(`bound of ${label}: the limit fits, one more is invalid_request naming ${path}`, async () => {
            const ok = await setArea({ name: 'Bounded', ...fits });
            assertOk(ok);
            for (const [k, v] of Object.entries(fits)) assert.deepEqual(ok.body.area[k], v, k);
            assertError(await setArea({ name: 'Bounded', ...tooMuch }), 'invalid_request', path);
            assertError(
              await setArea({ areaId: ok.body.area.id, name: 'Bounded', ...tooMuch }),
              'invalid_request',
              path,
            );
          });
        }

        it('enums: area kind, rule kind and appliesTo outside their lists are invalid_argument', async () => {
          for (const kind of ['park', 'reserve', 'island', 'region', 'city', 'other']) {
            assert.equal((await setArea({ name: kind, kind })).body.area.kind, kind);
          }
          const kinds = ['reservation', 'permit', 'guide', 'registration', 'no_independent_travel', 'vehicle', 'other'];
          const rules = kinds.map((kind) => ({ text: kind, kind, appliesTo: kind === 'vehicle' ? 'car' : 'all' }));
          assert.deepEqual((await setArea({ name: 'Rules', rules })).body.area.rules, rules);
          assertError(await setArea({ name: 'X', kind: 'country' }), 'invalid_argument', 'kind');
          assertError(
            await setArea({ name: 'X', rules: [{ text: 'R', kind: 'ban' }] }),
            'invalid_argument',
            'rules[0].kind',
          );
          assertError(
            await setArea({ name: 'X', rules: [{ text: 'R', appliesTo: 'bike' }] }),
            'invalid_argument',
            'rules[0].appliesTo',
          );
          assertError(await setArea({ name: 'X', rules: [{ text: 'R', months: ['may'] }] }), 'invalid_argument');
          assertError(await setArea({ name: 'X', rules: [{ kind: 'permit' }] }), 'invalid_argument', 'rules[0].text');
          assertError(await setArea({ kind: 'park' }), 'invalid_argument', 'name');
          assertError(await setArea({ name: '' }), 'invalid_request', 'name');
          assertError(await setArea({ name: 'X', colour: 'red' }), 'invalid_argument');
          const http = await setArea({ name: 'X', rules: [{ text: 'R', sourceUrl: 'http://tnp.si' }] });
          assertOk(http);
          assert.ok(
            http.body.warnings.some((w: string) => w.startsWith('rules[0].sourceUrl')),
            http.body.warnings,
          );
          assertError(
            await setArea({ name: 'X', rules: [{ text: 'R', sourceUrl: 'ftp://tnp.si' }] }),
            'invalid_request',
          );
        });

        it('spotKeys of the spots pointing at it, in the reply, in list_areas; list_spots filters by areaId', async () => {
          const guide = await newGuide(apis[t], `${t} area spots`);
          const lake = (await setArea({ name: 'Lake' }, guide)).body.area.id;
          suite.h.clock.advance(1);
          const hills = (await setArea({ name: 'Hills' }, guide)).body.area.id;
          for (const [spotKey, areaId] of [
            ['shore', lake],
            ['jetty', lake],
            ['summit', hills],
            ['town', null],
          ] as const) {
            assertOk(await call('create_spot', { productId: guide, spotKey, name: spotKey, areaId }), 201);
          }
          assertError(
            await call('create_spot', { productId: guide, name: 'Lost', areaId: 'ar_unknown' }),
            'invalid_request',
          );
          const replaced = await setArea({ areaId: lake, name: 'Lake' }, guide);
          assert.deepEqual(replaced.body.area.spotKeys, ['shore', 'jetty']);
          const listed = await listAreas(guide);
          assert.deepEqual(
            listed.areas.map((a: { name: string; spotKeys: string[] }) => [a.name, a.spotKeys]),
            [
              ['Lake', ['shore', 'jetty']],
              ['Hills', ['summit']],
            ],
          );
          const filtered = await call('list_spots', { productId: guide, areaId: lake });
          assertOk(filtered);
          assert.deepEqual(
            filtered.body.spots.map((s: { spotKey: string }) => s.spotKey),
            ['shore', 'jetty'],
          );
          assert.equal(filtered.body.count, 2);
        });

        it('delete_area: spots keep everything but areaId; the area is gone from lists and the guide', async () => {
          const guide = await newGuide(apis[t], `${t} delete area`);
          const doomed = (await setArea({ name: 'Doomed' }, guide)).body.area.id;
          const kept = (await setArea({ name: 'Kept' }, guide)).body.area.id;
          const spot = (
            await call('create_spot', {
              productId: guide,
              name: 'Rich spot',
              areaId: doomed,
              description: 'A long description',
              lat: 46.38,
              lon: 13.84,
              fees: [{ label: 'Entry', amount: 5, currency: 'EUR' }],
              status: { state: 'closed', until: '2027-01-01' },
              reviewBy: '2027-03-01',
            })
          ).body;
          const other = (await call('create_spot', { productId: guide, name: 'Other', areaId: kept })).body;
          const spotBefore = (await call('get_spot', { spotId: spot.spotId })).body;
          const otherBefore = (await call('get_spot', { spotId: other.spotId })).body;
          suite.h.clock.set('2026-11-25T12:00:00Z');
          const del = await call('delete_area', { productId: guide, areaId: doomed });
          assertOk(del);
          assert.deepEqual(del.body, { ok: true, productId: guide, areaId: doomed, deleted: true });
          const spotAfter = (await call('get_spot', { spotId: spot.spotId })).body;
          assert.equal(spotAfter.areaId, null);
          const { updatedAt: _a, areaId: _b, ...restAfter } = spotAfter;
          const { updatedAt: _c, areaId: _d, ...restBefore } = spotBefore;
          assert.deepEqual(restAfter, restBefore);
          assert.deepEqual((await call('get_spot', { spotId: other.spotId })).body, otherBefore);
          const listed = await listAreas(guide);
          assert.deepEqual(
            listed.areas.map((a: { id: string }) => a.id),
            [kept],
          );
          const g = await guideOf(apis[t], guide);
          assert.deepEqual(
            g.areas.map((a: { id: string }) => a.id),
            [kept],
          );
          assert.equal(g.lastApiWriteAt, Date.parse('2026-11-25T12:00:00Z'));
          assert.equal(g.spotCount, 2);
          assertError(await call('delete_area', { productId: guide, areaId: doomed }), 'not_found');
          assertError(await setArea({ areaId: doomed, name: 'Back' }, guide), 'not_found');
          const filtered = await call('list_spots', { productId: guide, areaId: doomed });
          assert.equal(filtered.body.count, 0);
        });

        it('a read-only key lists areas but cannot set or delete them', async () => {
          const ro = apiFor(suite.h, t, suite.h.alice.readKey);
          try {
            const id = (await setArea({ name: 'RO' })).body.area.id;
            assertError(await ro.call('set_area', { productId, name: 'No' }), 'api_scope_required');
            assertError(await ro.call('delete_area', { productId, areaId: id }), 'api_scope_required');
            const listed: Answer = await ro.call('list_areas', { productId });
            assertOk(listed);
            assert.ok(listed.body.areas.some((a: { id: string }) => a.id === id));
          } finally {
            await ro.close();
          }
        });
      });
    }
  });
}
