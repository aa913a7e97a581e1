import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertOk } from '../helpers/answers.ts';
import { type Api, apiFor, noRateLimits, transports } from '../helpers/api.ts';
import { testDialects } from '../helpers/dialects.ts';
import { newGuide } from '../helpers/fixtures.ts';
import { type Harness, startServer } from '../helpers/harness.ts';
import { assertGeoJson, download, gpxFeatures, HIKE_LINE, kmlFeatures, parseXml, ROUTE_LINE } from './read-back.ts';

/** Names that break careless XML and careless JSON, and a character beyond the BMP. */
const SPOT_NAME = 'Café "Zöe" & <Bar> 🏔️';
const DESCRIPTION = 'Line one & <two>\n"quoted" \'single\' 😀';
const AREA_NAME = 'Julian Alps & <Triglav> ⛰️';
/** Seven decimals, as stored: they come back exactly. */
const LAT = 46.3636123;
const LON = 14.0938457;

interface Seeded {
  productId: string;
  spotId: string;
}

/** A guide with an area, a custom property, a spot with every awkward character, one without a pin, a route and a hike. */
async function seed(api: Api): Promise<Seeded> {
  const productId = await newGuide(api, `Export ${SPOT_NAME}`);
  const property = await api.call('create_property', {
    productId,
    label: 'Best for',
    key: 'best_for',
    kind: 'singleSelect',
    options: [{ label: 'Swim & sun' }, { label: 'Views <wide>' }],
  });
  assertOk(property, 201);
  const optionId = property.body.options[1].id as string;
  const area = await api.call('set_area', { productId, name: AREA_NAME, note: 'Rules "apply" here' });
  assertOk(area);
  const spots = await api.call('upsert_spots', {
    productId,
    spots: [
      {
        spotKey: 'cafe',
        name: SPOT_NAME,
        description: DESCRIPTION,
        lat: LAT,
        lon: LON,
        areaId: area.body.area.id,
        customValues: { best_for: optionId },
        links: [{ kind: 'website', label: 'Site & menu', url: 'https://example.com/menu?a=1&b=2' }],
        reviewNotes: 'Check the price in spring',
      },
      { spotKey: 'no-pin', name: 'No pin yet' },
    ],
  });
  assertOk(spots);
  const collection = await api.call('create_chapter', { productId, name: 'Cafés & <more>', kind: 'collection' });
  assertOk(collection, 201);
  const members = [{ spotKey: 'cafe' }];
  assertOk(await api.call('set_chapter_members', { collectionId: collection.body.collectionId, members }));
  const route = await api.call('create_route', {
    productId,
    name: 'Bus & boat 🚌',
    description: 'Take the <early> bus',
    track: { type: 'LineString', coordinates: ROUTE_LINE },
  });
  assertOk(route, 201);
  const hike = await api.call('create_hike', {
    productId,
    name: 'Ridge "walk"',
    track: { type: 'LineString', coordinates: HIKE_LINE },
  });
  assertOk(hike, 201);
  const spotId = (spots.body.spots as { spotKey: string; spotId: string }[]).find((s) => s.spotKey === 'cafe')?.spotId;
  return { productId, spotId: spotId as string };
}

/** The export answer and its download, checked to match each other. */
async function exported(api: Api, productId: string, format: string) {
  const answer = await api.call('export_guide', { productId, format });
  assertOk(answer);
  const body = answer.body;
  assert.ok(JSON.stringify(body).length < 1500, 'the answer is small facts, never the file');
  assert.equal(body.format, format);
  assert.equal(body.from, 'working');
  const file = await download(body.url);
  assert.equal(file.status, 200, file.text);
  assert.equal(file.bytes, body.byteSize, 'byteSize is the file downloaded');
  assert.match(file.disposition ?? '', new RegExp(`^attachment; filename="${body.fileName}"`));
  assert.equal(file.cacheControl, 'private, no-store');
  return { body, text: file.text, contentType: file.contentType?.split(';')[0] };
}

const near = (a: number[], b: number[]) => a.every((n, i) => Math.abs(n - (b[i] as number)) < 1e-9);

for (const { dialect, skip } of await testDialects()) {
  describe(`export_guide writes files map apps open (${dialect})`, { skip }, () => {
    let h: Harness;
    before(async () => {
      h = await startServer({ dialect, env: noRateLimits });
    });
    after(async () => {
      await h?.close();
    });

    for (const t of transports) {
      it(`${t}: GeoJSON holds areas, spots with their properties, and lines`, async () => {
        const api = apiFor(h, t, h.alice.readKey);
        const writer = apiFor(h, 'rest', h.alice.writeKey);
        try {
          const { productId, spotId } = await seed(writer);
          const { body, text, contentType } = await exported(api, productId, 'geojson');
          assert.equal(contentType, 'application/geo+json');
          assert.deepEqual(body.counts, { spots: 2, areas: 1, routes: 1, hikes: 1 });
          const fc = JSON.parse(text);
          assertGeoJson(fc);
          const spot = fc.features.find((f: any) => f.id === spotId);
          assert.equal(spot.properties.name, SPOT_NAME);
          assert.equal(spot.properties.description, DESCRIPTION);
          assert.deepEqual(spot.geometry.coordinates, [LON, LAT]);
          assert.equal(spot.properties.best_for, 'Views <wide>', 'an option as buyers read it');
          assert.equal(spot.properties.area, AREA_NAME);
          assert.deepEqual(spot.properties.collections, ['Cafés & <more>']);
          assert.equal(spot.properties.links[0].url, 'https://example.com/menu?a=1&b=2');
          assert.equal(spot.properties.reviewNotes, 'Check the price in spring', 'the working copy holds its notes');
          const unpinned = fc.features.find((f: any) => f.properties.name === 'No pin yet');
          assert.equal(unpinned.geometry, null);
          const area = fc.features.find((f: any) => f.properties.kind === 'area');
          assert.equal(area.properties.name, AREA_NAME);
          const route = fc.features.find((f: any) => f.properties.kind === 'route');
          assert.deepEqual(route.geometry.coordinates, ROUTE_LINE);
          const hike = fc.features.find((f: any) => f.properties.kind === 'hike');
          assert.deepEqual(hike.geometry.coordinates, HIKE_LINE);
        } finally {
          await api.close();
          await writer.close();
        }
      });

      it(`${t}: KML opens with togeojson: folders, placemarks, ExtendedData and lines`, async () => {
        const api = apiFor(h, t, h.alice.readKey);
        const writer = apiFor(h, 'rest', h.alice.writeKey);
        try {
          const { productId } = await seed(writer);
          const { text, contentType } = await exported(api, productId, 'kml');
          assert.equal(contentType, 'application/vnd.google-earth.kml+xml');
          const doc = parseXml(text);
          const folders = Array.from(
            doc.getElementsByTagName('Folder'),
            (f) => f.getElementsByTagName('name')[0]?.textContent,
          );
          assert.deepEqual(folders, [AREA_NAME, 'Routes', 'Hikes']);
          const features = kmlFeatures(text);
          const spot = features.find((f) => f.properties?.name === SPOT_NAME);
          assert.ok(spot, `the spot by its exact name among ${features.map((f) => f.properties?.name)}`);
          assert.equal(spot.properties?.description, DESCRIPTION);
          assert.deepEqual(spot.geometry.coordinates, [LON, LAT]);
          assert.equal(spot.properties?.best_for, 'Views <wide>');
          assert.equal(spot.properties?.area, AREA_NAME);
          assert.equal(spot.properties?.collections, 'Cafés & <more>');
          assert.equal(spot.properties?.links, 'Site & menu: https://example.com/menu?a=1&b=2');
          const route = features.find((f) => f.properties?.name === 'Bus & boat 🚌');
          assert.equal(route?.geometry?.type, 'LineString');
          assert.ok(near(route.geometry.coordinates.flat(), ROUTE_LINE.flat()));
          const hike = features.find((f) => f.properties?.name === 'Ridge "walk"');
          assert.deepEqual(hike.geometry.coordinates, HIKE_LINE);
          assert.ok(features.some((f) => f.properties?.name === 'No pin yet' && f.geometry === null));
        } finally {
          await api.close();
          await writer.close();
        }
      });

      it(`${t}: GPX opens with togeojson: waypoints and tracks, and says what it left out`, async () => {
        const api = apiFor(h, t, h.alice.readKey);
        const writer = apiFor(h, 'rest', h.alice.writeKey);
        try {
          const { productId } = await seed(writer);
          const { body, text, contentType } = await exported(api, productId, 'gpx');
          assert.equal(contentType, 'application/gpx+xml');
          assert.deepEqual(body.counts, { spots: 1, areas: 0, routes: 1, hikes: 1 });
          assert.ok(
            body.leftOut.some((s: string) => /1 spot without a position/.test(s)),
            body.leftOut,
          );
          const features = gpxFeatures(text);
          const points = features.filter((f) => f.geometry?.type === 'Point');
          assert.equal(points.length, 1);
          assert.equal(points[0]?.properties?.name, SPOT_NAME);
          assert.equal(points[0]?.properties?.desc, DESCRIPTION);
          assert.equal(points[0]?.properties?.type, AREA_NAME);
          assert.equal(points[0]?.properties?.cmt, 'Collections: Cafés & <more>\nBest for: Views <wide>');
          assert.deepEqual(points[0].geometry.coordinates, [LON, LAT]);
          const tracks = features.filter((f) => f.geometry?.type === 'LineString');
          assert.deepEqual(
            tracks.map((f) => f.properties?.name),
            ['Bus & boat 🚌', 'Ridge "walk"'],
          );
          assert.ok(near(tracks[0].geometry.coordinates.flat(), ROUTE_LINE.flat()));
          assert.deepEqual(tracks[1].geometry.coordinates, HIKE_LINE);
        } finally {
          await api.close();
          await writer.close();
        }
      });
    }
  });
}
