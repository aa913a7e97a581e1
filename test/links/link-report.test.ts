import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertError, assertOk } from '../helpers/answers.ts';
import { apiFor, transports, useServer } from '../helpers/api.ts';
import { testDialects } from '../helpers/dialects.ts';
import { newGuide } from '../helpers/fixtures.ts';
import { flat } from '../helpers/images.ts';
import { uploadRaw } from '../helpers/uploads.ts';

const shared = 'https://shared.example/page';

/** A spot with a link in every kind of field a spot has, plus two strings that are not web links. */
const spot = {
  name: 'Lookout',
  links: [
    { kind: 'official', url: 'https://spot.example/' },
    { kind: 'app', value: '+386 1 234 567' },
    { kind: 'website', url: shared },
  ],
  mapLinks: [
    { label: 'Google', url: 'https://www.google.com/maps/place/Bled' },
    { label: 'Pin', url: 'geo:46.36,14.09' },
  ],
  fees: [{ label: 'Entry', amount: 5, currency: 'EUR', sourceUrl: 'https://spot.example/fees' }],
  status: { state: 'open', sourceUrl: 'https://spot.example/status' },
  schedule: { hours: [{ open: '08:00', close: '18:00' }], sourceUrl: 'https://spot.example/hours' },
  sources: [{ url: 'https://research.example/a' }, { title: 'A book' }],
};

const spotUrls = [
  'https://spot.example/',
  shared,
  'https://www.google.com/maps/place/Bled',
  'https://spot.example/fees',
  'https://spot.example/status',
  'https://spot.example/hours',
  'https://research.example/a',
];

for (const { dialect, skip } of await testDialects()) {
  describe(`get_link_report and set_link_verified (${dialect})`, { skip }, () => {
    const suite = useServer({ dialect });

    for (const t of transports) {
      describe(t, () => {
        const api = () => suite.apis[t];

        it('finds every link on spots, areas, places, routes and hikes, each once with all its uses', async () => {
          const productId = await newGuide(api(), 'Links');
          const s = await api().call('create_spot', { productId, ...spot });
          assertOk(s, 201);
          const a = await api().call('set_area', {
            productId,
            name: 'Park',
            rules: [{ text: 'Permit needed', sourceUrl: 'https://park.example/rules' }],
            links: [{ kind: 'official', url: 'https://park.example/' }],
          });
          assertOk(a);
          const p = await api().call('create_facility', {
            productId,
            kind: 'activity',
            name: 'Boat tour',
            website: shared,
            bookingUrl: 'https://boats.example/book',
            mapsUrl: 'geo:46.3,14.1',
            activity: { authorizedBy: 'Park', authorizedByUrl: 'https://park.example/licensed' },
            transport: { timetableUrl: 'https://boats.example/times' },
          });
          assertOk(p, 201);
          const r = await api().call('create_route', {
            productId,
            name: 'Lake road',
            links: [{ kind: 'status', url: 'https://roads.example/lake' }],
          });
          assertOk(r, 201);
          const k = await api().call('create_hike', {
            productId,
            name: 'Ridge',
            sources: ['https://hikes.example/ridge', 'Tourist office leaflet'],
            startMapsUrl: 'https://www.google.com/maps/place/Ridge',
          });
          assertOk(k, 201);

          const report = await api().call('get_link_report', { productId });
          assertOk(report);
          const urls = report.body.links.map((l: { url: string }) => l.url);
          const expected = [
            ...spotUrls,
            'https://park.example/rules',
            'https://park.example/',
            'https://boats.example/book',
            'https://park.example/licensed',
            'https://boats.example/times',
            'https://roads.example/lake',
            'https://hikes.example/ridge',
            'https://www.google.com/maps/place/Ridge',
          ];
          assert.deepEqual(urls.toSorted(), expected.toSorted());
          // Guide order: record by record, in the order the kinds are read.
          const kinds = report.body.links.map((l: { uses: Array<{ kind: string }> }) => l.uses[0]?.kind);
          const order = ['spot', 'area', 'place', 'route', 'hike'];
          assert.deepEqual(
            kinds,
            kinds.toSorted((x: string, y: string) => order.indexOf(x) - order.indexOf(y)),
          );
          assert.equal(report.body.count, urls.length);
          assert.deepEqual(report.body.counts, {
            ok: 0,
            redirected: 0,
            broken: 0,
            blocked: 0,
            error: 0,
            unchecked: urls.length,
          });
          const entry = (url: string) => report.body.links.find((l: { url: string }) => l.url === url);
          assert.deepEqual(entry(shared), {
            url: shared,
            uses: [
              { kind: 'spot', id: s.body.spotId, name: 'Lookout', field: 'links[2].url' },
              { kind: 'place', id: p.body.facilityId, name: 'Boat tour', field: 'website' },
            ],
            lastCheck: null,
            verified: false,
            verifiedAt: null,
          });
          const fieldOf = (url: string) => entry(url).uses.map((u: { field: string }) => u.field);
          assert.deepEqual(fieldOf('https://spot.example/fees'), ['fees[0].sourceUrl']);
          assert.deepEqual(fieldOf('https://spot.example/status'), ['status.sourceUrl']);
          assert.deepEqual(fieldOf('https://spot.example/hours'), ['schedule.sourceUrl']);
          assert.deepEqual(fieldOf('https://research.example/a'), ['sources[0].url']);
          assert.deepEqual(fieldOf('https://www.google.com/maps/place/Bled'), ['mapLinks[0].url']);
          assert.deepEqual(fieldOf('https://park.example/rules'), ['rules[0].sourceUrl']);
          assert.deepEqual(fieldOf('https://park.example/licensed'), ['activity.authorizedByUrl']);
          assert.deepEqual(fieldOf('https://boats.example/times'), ['transport.timetableUrl']);
          assert.deepEqual(entry('https://hikes.example/ridge').uses, [
            { kind: 'hike', id: k.body.hikeId, name: 'Ridge', field: 'sources[0]' },
          ]);
          assert.deepEqual(entry('https://roads.example/lake').uses, [
            { kind: 'route', id: r.body.routeId, name: 'Lake road', field: 'links[0].url' },
          ]);
          assert.equal(entry('https://park.example/').uses[0].kind, 'area');
        });

        it('a link removed from a spot leaves the report; one still used elsewhere keeps its other use', async () => {
          const productId = await newGuide(api(), 'Removals');
          const s = await api().call('create_spot', { productId, ...spot });
          await api().call('create_facility', { productId, kind: 'food', name: 'Cafe', website: shared });
          assertOk(await api().call('update_spot', { spotId: s.body.spotId, links: [], sources: [] }));
          const report = await api().call('get_link_report', { productId });
          const urls = report.body.links.map((l: { url: string }) => l.url);
          assert.ok(!urls.includes('https://spot.example/'));
          assert.ok(!urls.includes('https://research.example/a'));
          const kept = report.body.links.find((l: { url: string }) => l.url === shared);
          assert.deepEqual(
            kept.uses.map((u: { kind: string }) => u.kind),
            ['place'],
          );
        });

        it('archived spots count; a guide without links answers an empty report', async () => {
          const productId = await newGuide(api(), 'Archive');
          const empty = await api().call('get_link_report', { productId });
          assertOk(empty);
          assert.deepEqual(empty.body.links, []);
          assert.equal(empty.body.count, 0);
          const s = await api().call('create_spot', { productId, name: 'Old', links: [spot.links[0]] });
          await api().call('update_spot', { spotId: s.body.spotId, archived: true });
          const report = await api().call('get_link_report', { productId });
          assert.deepEqual(
            report.body.links.map((l: { url: string }) => l.url),
            ['https://spot.example/'],
          );
        });

        it('set_link_verified marks and unmarks a link the guide holds, and refuses one it does not', async () => {
          const productId = await newGuide(api(), 'Verified');
          await api().call('create_spot', { productId, ...spot });
          suite.h.clock.set('2026-11-24T08:00:00Z');
          const marked = await api().call('set_link_verified', { productId, url: shared, verified: true });
          assertOk(marked);
          const at = Date.parse('2026-11-24T08:00:00Z');
          assert.deepEqual(marked.body, {
            ok: true,
            productId,
            url: shared,
            marked: 1,
            verified: true,
            verifiedAt: at,
          });
          let report = await api().call('get_link_report', { productId });
          const entry = (url: string) => report.body.links.find((l: { url: string }) => l.url === url);
          assert.equal(entry(shared).verified, true);
          assert.equal(entry(shared).verifiedAt, at);
          assert.equal(entry(shared).lastCheck, null, 'a mark is not a check');
          assert.equal(entry('https://spot.example/').verified, false);

          const unmarked = await api().call('set_link_verified', { productId, url: shared, verified: false });
          assertOk(unmarked);
          assert.equal(unmarked.body.verifiedAt, null);
          report = await api().call('get_link_report', { productId });
          assert.equal(entry(shared).verified, false);
          assert.equal(entry(shared).verifiedAt, null);
          const rows = await suite.h.store.db
            .selectFrom('link_checks')
            .select('url')
            .where('guide_id', '=', productId)
            .execute();
          assert.deepEqual(rows, [], 'an unmarked link never checked leaves no row behind');

          const elsewhere = await api().call('set_link_verified', {
            productId,
            url: 'https://not-in.example/',
            verified: true,
          });
          assertError(elsewhere, 'invalid_request', 'url');
          // Held links are matched exactly as written.
          const spelled = await api().call('set_link_verified', { productId, url: `${shared}/`, verified: true });
          assertError(spelled, 'invalid_request', 'url');
          assertError(
            await api().call('set_link_verified', { productId, url: shared }),
            'invalid_argument',
            'verified',
          );
        });

        it('status filters the list; counts stay over every link', async () => {
          const productId = await newGuide(api(), 'Filter');
          await api().call('create_spot', { productId, ...spot });
          const unchecked = await api().call('get_link_report', { productId, status: 'unchecked' });
          assertOk(unchecked);
          assert.equal(unchecked.body.count, spotUrls.length);
          const ok = await api().call('get_link_report', { productId, status: 'ok' });
          assert.equal(ok.body.count, 0);
          assert.deepEqual(ok.body.links, []);
          assert.equal(ok.body.counts.unchecked, spotUrls.length);
          assertError(await api().call('get_link_report', { productId, status: 'fine' }), 'invalid_argument', 'status');
        });
      });
    }

    it("a photo's credit and source pages are in the report, over REST and MCP; its own files are not", async () => {
      const productId = await newGuide(suite.apis.rest, 'Photo links');
      const upload = await uploadRaw(
        suite.h,
        suite.h.alice.writeKey,
        await flat(32, 40).png().toBuffer(),
        'image/png',
        {
          productId,
          credit: 'Ana Trails',
          creditUrl: 'https://ana.example/',
          sourcePageUrl: 'https://archive.example/photo/7',
        },
      );
      assert.equal(upload.status, 201, JSON.stringify(upload.body));
      for (const t of transports) {
        const report = await suite.apis[t].call('get_link_report', { productId });
        assertOk(report);
        const urls = report.body.links.map((l: { url: string }) => l.url).sort();
        assert.deepEqual(urls, ['https://ana.example/', 'https://archive.example/photo/7'], t);
        const credit = report.body.links.find((l: { url: string }) => l.url === 'https://ana.example/');
        assert.deepEqual(credit.uses, [{ kind: 'photo', id: upload.body.mediaId, name: null, field: 'creditUrl' }], t);
      }
    });

    it('a read-only key reads the report and may not mark links', async () => {
      const writer = suite.apis.rest;
      const productId = await newGuide(writer, 'Scopes');
      await writer.call('create_spot', { productId, ...spot });
      const reader = apiFor(suite.h, 'rest', suite.h.alice.readKey);
      assertOk(await reader.call('get_link_report', { productId }));
      assertError(
        await reader.call('set_link_verified', { productId, url: shared, verified: true }),
        'api_scope_required',
      );
      assertError(await reader.call('check_links', { productId }), 'api_scope_required');
    });
  });
}
