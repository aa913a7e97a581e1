import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertOk } from '../helpers/answers.ts';
import { type Api, transports, useServer } from '../helpers/api.ts';
import { testDialects } from '../helpers/dialects.ts';
import { newGuide } from '../helpers/fixtures.ts';
import { wholeGuide } from '../helpers/whole-guide.ts';
import { download, HIKE_LINE, ROUTE_LINE } from './read-back.ts';

/**
 * A guide exported as GeoJSON, KML and GPX and imported with import_spots into a new guide: what
 * the map formats carry (the spots' names, descriptions and positions to 7 decimals, the routes'
 * and hikes' lines) comes back exactly, compared through the whole-guide reader. What they cannot
 * carry is in docs/decisions/files.md (Round trip through map formats).
 */

const SPOTS = [
  {
    spotKey: 'cafe',
    name: 'Café "Zöe" & Bar 🏔️',
    description: 'Line one & two\n"quoted" \'single\' 😀\n\nOpen 8:00–18:00.',
    lat: 46.3636123,
    lon: 14.0938457,
  },
  {
    spotKey: 'south',
    name: 'South of the equator',
    description: 'Negative, 7 decimals.',
    lat: -33.8567844,
    lon: 151.2152967,
  },
  { spotKey: 'west', name: 'Ponta do Pargo', lat: 32.8123456, lon: -17.2654321 },
];

async function fullGuide(api: Api): Promise<string> {
  const productId = await newGuide(api, 'Round trip');
  const area = await api.call('set_area', { productId, name: 'Julian Alps' });
  assertOk(area);
  const spots = SPOTS.map((s, i) => (i === 0 ? { ...s, areaId: area.body.area.id } : s));
  assertOk(await api.call('upsert_spots', { productId, spots: [...spots, { spotKey: 'no-pin', name: 'No pin yet' }] }));
  const track = (coordinates: number[][]) => ({ type: 'LineString', coordinates });
  assertOk(await api.call('create_route', { productId, name: 'Bus & boat 🚌', track: track(ROUTE_LINE) }), 201);
  assertOk(await api.call('create_hike', { productId, name: 'Ridge "walk"', track: track(HIKE_LINE) }), 201);
  return productId;
}

/** What a map file carries of a guide, as the whole-guide reader holds it. */
async function mapContent(suite: ReturnType<typeof useServer>, productId: string) {
  const parts = await wholeGuide(suite.h, productId, ['guide', 'spots', 'routesWithTracks']);
  const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
  return {
    spots: parts.spots
      .filter((s: any) => s.lat !== null)
      .map((s: any) => ({ name: s.name, description: s.description, lat: s.lat, lon: s.lon }))
      .sort(byName),
    lines: parts.routesWithTracks
      .map((r: any) => ({ name: r.name, line: r.track?.coordinates ?? r.track }))
      .sort(byName),
  };
}

for (const { dialect, skip } of await testDialects()) {
  describe(`files: a guide through each map format and back (${dialect})`, { skip }, () => {
    const suite = useServer({ dialect });

    for (const format of ['geojson', 'kml', 'gpx'] as const) {
      it(`${format}: exported, then imported into a new guide, gives back its spots and lines`, async () => {
        const { apis } = suite;
        const productId = await fullGuide(apis.rest);
        const original = await mapContent(suite, productId);
        for (const t of transports) {
          const answer = await apis[t].call('export_guide', { productId, format });
          assertOk(answer);
          const file = await download(answer.body.url);
          assert.equal(file.status, 200);
          const copyId = await newGuide(apis[t], `Round trip ${format} ${t}`);
          const imported = await apis[t].call('import_spots', { productId: copyId, format, content: file.text });
          assertOk(imported);
          assert.deepEqual(await mapContent(suite, copyId), original, `${format} over ${t}`);
        }
      });
    }
  });
}
