import assert from 'node:assert/strict';
import { test } from 'node:test';
import { COAST_MIN_KM, drawMap } from '../../src/resources/sales-page/page-map.ts';
import { MADEIRA } from './madeira.ts';

/** The markers and labels a map drew, in SVG units, and the map's size. */
function drawn(svg: string) {
  const [, width, height] = /viewBox="0 0 ([\d.]+) ([\d.]+)"/.exec(svg) ?? [];
  const pins = [...svg.matchAll(/<circle class="pin" cx="([-\d.]+)" cy="([-\d.]+)" r="([\d.]+)"/g)].map((m) => ({
    x: Number(m[1]),
    y: Number(m[2]),
    r: Number(m[3]),
  }));
  const fontSize = Number(/<g class="labels" font-size="([\d.]+)"/.exec(svg)?.[1]);
  const labels = [
    ...svg.matchAll(/<text class="label" x="([-\d.]+)" y="([-\d.]+)" textLength="([\d.]+)"[^>]*>([^<]*)</g),
  ].map((m) => {
    const [x, baseline, length] = [Number(m[1]), Number(m[2]), Number(m[3])];
    // What any of the fonts asked for reaches above and below the baseline.
    return {
      text: m[4],
      minX: x,
      maxX: x + length,
      minY: baseline - 0.95 * fontSize,
      maxY: baseline + 0.25 * fontSize,
    };
  });
  return { width: Number(width), height: Number(height), pins, labels, svg };
}

const inside = (map: ReturnType<typeof drawn>) =>
  map.pins.every((p) => p.x - p.r >= 0 && p.x + p.r <= map.width && p.y - p.r >= 0 && p.y + p.r <= map.height);

test('no place and no region, no map; a region alone is a map without markers', () => {
  assert.equal(drawMap(null, []), '');
  assert.equal(drawMap(null, [{ name: 'Nowhere', lat: Number.NaN, lon: 1 }]), '');
  const region = drawn(drawMap([13, 46, 14, 47], []));
  assert.ok(region.width === 480 && region.height > 0);
  assert.equal(region.pins.length, 0);
});

test('pins sit where they are: east to the right, north up, inside the region drawn', () => {
  const map = drawn(
    drawMap(
      [13, 46, 14, 46.6],
      [
        { name: 'West', lat: 46.3, lon: 13.2 },
        { name: 'East', lat: 46.3, lon: 13.8 },
        { name: 'North', lat: 46.45, lon: 13.5 },
      ],
    ),
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
  assert.ok(inside(drawn(drawMap(null, [{ name: 'Alone', lat: 46.3, lon: 13.2 }]))));
  const outside = drawn(
    drawMap(
      [13, 46, 14, 47],
      [
        { name: 'Far', lat: 48, lon: 16 },
        { name: 'Near', lat: 46.3, lon: 13.5 },
      ],
    ),
  );
  assert.ok(inside(outside));
  assert.ok(outside.height >= outside.width * 0.5 && outside.height <= outside.width, 'between 1:2 and 1:1');
});

test('a region across the antimeridian maps the short way round, with land on both sides', () => {
  const map = drawn(
    drawMap(
      [177, -19.5, -178, -15.5],
      [
        { name: 'Viti Levu', lat: -17.8, lon: 178 },
        { name: 'Taveuni', lat: -16.8, lon: -179.9 },
      ],
    ),
  );
  assert.ok(inside(map));
  const [west, east] = map.pins;
  assert.ok(west && east && west.x < east.x, 'the eastern island is to the right');
  assert.ok(east.x - west.x < map.width * 0.6, 'not spread over the whole globe');
  assert.match(map.svg, /<path class="land" d="M/);
});

test('Madeira: sea and an island, every name drawn in full, none over another or over a marker', () => {
  const map = drawn(drawMap(MADEIRA.region, MADEIRA.spots));
  assert.match(map.svg, /<rect class="sea"/);
  assert.match(map.svg, /<path class="land" d="M[^"]{100,}"/);
  assert.deepEqual(
    map.labels.map((l) => l.text),
    MADEIRA.spots.map((s) => s.name),
  );
  for (const [i, a] of map.labels.entries()) {
    assert.ok(a.minX >= 0 && a.maxX <= map.width && a.minY >= 0 && a.maxY <= map.height, `${a.text} inside`);
    for (const b of map.labels.slice(i + 1)) {
      assert.ok(a.maxX <= b.minX || b.maxX <= a.minX || a.maxY <= b.minY || b.maxY <= a.minY, `${a.text} / ${b.text}`);
    }
    for (const p of map.pins) {
      const dx = p.x - Math.max(a.minX, Math.min(p.x, a.maxX));
      const dy = p.y - Math.max(a.minY, Math.min(p.y, a.maxY));
      assert.ok(dx * dx + dy * dy >= p.r * p.r, `${a.text} clear of the marker at ${p.x},${p.y}`);
    }
  }
  assert.equal(drawMap(MADEIRA.region, MADEIRA.spots), map.svg, 'a pure function: the same map every time');
});

test('open sea is all sea; a town-sized map draws no coastline, only a plain ground and a scale', () => {
  const sea = drawMap([-30, 30, -29, 31], [{ name: 'Mid-Atlantic', lat: 30.5, lon: -29.5 }]);
  assert.match(sea, /<rect class="sea"/);
  assert.doesNotMatch(sea, /class="land"/);
  const funchal = drawMap([-16.95, 32.63, -16.88, 32.67], [{ name: 'Sé Cathedral', lat: 32.6479, lon: -16.9084 }]);
  assert.ok(COAST_MIN_KM > 7, 'the Funchal box (7 km) is under the limit');
  assert.doesNotMatch(funchal, /class="(land|sea)"/);
  assert.match(funchal, /class="grid"/);
  assert.match(funchal, /<g class="scale">.*>(1|2) km<\/text>/);
});

test('markers show their given number; names and numbers are text: markup is escaped', () => {
  const svg = drawMap(null, [
    { name: '<script>x</script>', lat: 1, lon: 1, marker: '7' },
    { name: 'B', lat: 1.001, lon: 1.01 },
  ]);
  assert.doesNotMatch(svg, /<script/);
  assert.match(svg, /&lt;script&gt;x&lt;\/script&gt;/);
  assert.match(svg, />7<\/text>/);
  assert.match(svg, />2<\/text>/, 'a point without a marker is numbered by its place in the list');
});
