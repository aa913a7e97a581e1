import assert from 'node:assert/strict';
import { test } from 'node:test';
import { spotMap } from './page-map.ts';

/** The pins a map drew: centre and label, in SVG units, and the map's size. */
function drawn(svg: string) {
  const [, width, height] = /viewBox="0 0 ([\d.]+) ([\d.]+)"/.exec(svg) ?? [];
  const pins = [...svg.matchAll(/<circle cx="([-\d.]+)" cy="([-\d.]+)"[\s\S]*?class="label"[^>]*>([^<]*)</g)].map(
    (m) => ({
      x: Number(m[1]),
      y: Number(m[2]),
      name: m[3],
    }),
  );
  return { width: Number(width), height: Number(height), pins };
}

const inside = (map: ReturnType<typeof drawn>) =>
  map.pins.every((p) => p.x > 0 && p.x < map.width && p.y > 0 && p.y < map.height);

test('no pin, no map', () => {
  assert.equal(spotMap([{ name: 'Nowhere', lat: null, lon: null }], [13, 46, 14, 47]).text, '');
});

test('pins sit where they are: east to the right, north up, inside the region drawn', () => {
  const map = drawn(
    spotMap(
      [
        { name: 'West', lat: 46.3, lon: 13.2 },
        { name: 'East', lat: 46.3, lon: 13.8 },
        { name: 'North', lat: 46.45, lon: 13.5 },
      ],
      [13, 46, 14, 46.6],
    ).text,
  );
  assert.ok(inside(map));
  const [west, east, north] = map.pins;
  assert.ok(west && east && north);
  assert.ok(west.x < north.x && north.x < east.x);
  assert.ok(north.y < west.y && Math.abs(west.y - east.y) < 0.01);
  // At 46.3° a degree of longitude is cos(46.3°) of a degree of latitude: the projection keeps that.
  const perLonDegree = (east.x - west.x) / 0.6;
  const perLatDegree = (west.y - north.y) / 0.15;
  assert.ok(Math.abs(perLonDegree / perLatDegree - Math.cos((46.3 * Math.PI) / 180)) < 0.01);
});

test('a single pin without a region, and pins outside the region, still fall inside the map', () => {
  assert.ok(inside(drawn(spotMap([{ name: 'Alone', lat: 46.3, lon: 13.2 }], null).text)));
  const outside = drawn(
    spotMap(
      [
        { name: 'Far', lat: 48, lon: 16 },
        { name: 'Near', lat: 46.3, lon: 13.5 },
      ],
      [13, 46, 14, 47],
    ).text,
  );
  assert.ok(inside(outside));
  assert.ok(outside.height >= outside.width * 0.5 && outside.height <= outside.width, 'between 1:2 and 1:1');
});

test('a region across the antimeridian maps the short way round', () => {
  const map = drawn(
    spotMap(
      [
        { name: 'Viti Levu', lat: -17.8, lon: 178 },
        { name: 'Taveuni', lat: -16.8, lon: -179.9 },
      ],
      [177, -19.5, -178, -15.5],
    ).text,
  );
  assert.ok(inside(map));
  const [west, east] = map.pins;
  assert.ok(west && east && west.x < east.x, 'the eastern island is to the right');
  assert.ok(east.x - west.x < map.width * 0.6, 'not spread over the whole globe');
});

test('names are text: markup in a spot name is escaped', () => {
  const svg = spotMap([{ name: '<script>x</script>', lat: 1, lon: 1 }], null).text;
  assert.doesNotMatch(svg, /<script/);
  assert.match(svg, /&lt;script&gt;x&lt;\/script&gt;/);
});
