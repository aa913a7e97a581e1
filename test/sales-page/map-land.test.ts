import assert from 'node:assert/strict';
import { test } from 'node:test';
import { frameOf, type MapFrame, type Region } from '../../src/resources/sales-page/map-frame.ts';
import { landPath } from '../../src/resources/sales-page/map-land.ts';

/** The rings of path data made of M, L and Z, as points. */
function rings(path: string): [number, number][][] {
  return path
    .split('M')
    .filter(Boolean)
    .map((ring) =>
      ring
        .replace(/Z$/, '')
        .split('L')
        .map((p) => p.split(',').map(Number) as [number, number]),
    );
}

/** Whether a point is on land: inside an odd number of rings (the fill rule of a plain SVG path). */
function onLand(path: string, frame: MapFrame, lat: number, lon: number): boolean {
  const x = frame.x(frame.unwrap(lon));
  const y = frame.y(lat);
  let inside = false;
  for (const ring of rings(path)) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [xi, yi] = ring[i] as [number, number];
      const [xj, yj] = ring[j] as [number, number];
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
    }
  }
  return inside;
}

const frame = (region: Region) => frameOf(region, [], 480);

test('an island region: Madeira is land, the sea around it is not, and the outline is small', () => {
  const madeira = frame([-17.3, 32.6, -16.6, 32.9]);
  const started = performance.now();
  const path = landPath(madeira);
  const ms = performance.now() - started;
  assert.ok(path.length > 100 && path.length < 4000, `an outline of ${path.length} bytes`);
  assert.ok(onLand(path, madeira, 32.7589, -16.9431), 'Pico Ruivo is on land');
  assert.ok(onLand(path, madeira, 32.6476, -16.9083), 'Funchal is on land');
  assert.ok(!onLand(path, madeira, 32.62, -17.25), 'the sea south-west of the island is sea');
  assert.ok(!onLand(path, madeira, 32.88, -16.75), 'the sea to the north-east is sea');
  // The first call reads the data (about 150 ms here); a later map takes a few milliseconds.
  const again = performance.now();
  assert.equal(landPath(madeira), path, 'the same frame, the same outline');
  assert.ok(
    performance.now() - again < 100,
    `a later map: ${(performance.now() - again).toFixed(1)} ms (first ${ms.toFixed(0)} ms)`,
  );
});

test('open ocean has no land, and a region inland is land from edge to edge', () => {
  assert.equal(landPath(frame([-30, 30, -29, 31])), '', 'mid-Atlantic');
  const dolomites = frame([11.2, 46.1, 12.6, 46.9]);
  const path = landPath(dolomites);
  for (const [lat, lon] of [
    [46.12, 11.22],
    [46.88, 12.58],
    [46.5, 11.9],
  ] as const) {
    assert.ok(onLand(path, dolomites, lat, lon), `${lat},${lon} is land`);
  }
  assert.ok(path.length < 100, 'the whole frame, as one rectangle');
});

test('across the antimeridian: the islands on both sides of 180° are land, the sea between is not', () => {
  const fiji = frame([177, -19.5, -178, -15.5]);
  const path = landPath(fiji);
  assert.ok(onLand(path, fiji, -17.8, 178.0), 'Viti Levu, west of 180°');
  assert.ok(onLand(path, fiji, -16.85, -179.95), 'Taveuni, east of 180°');
  assert.ok(onLand(path, fiji, -16.6, 179.4), 'Vanua Levu');
  // Vertices written as -180 amid a coast at 179.9 must not become lines across the map.
  assert.ok(!onLand(path, fiji, -16.5, 177.5), 'the sea north of Viti Levu');
  assert.ok(!onLand(path, fiji, -16.3, 177.1), 'the sea at the western edge');
  for (const ring of rings(path)) {
    const xs = ring.map(([x]) => x);
    assert.ok(Math.max(...xs) - Math.min(...xs) < 300, 'no ring stretches across the map');
  }
});

test('a country-sized region stays a reasonable size', () => {
  const norway = frame([4, 57.9, 31.2, 71.2]);
  const path = landPath(norway);
  assert.ok(path.length < 40_000, `${path.length} bytes for a coast of fjords`);
  assert.ok(onLand(path, norway, 61.0, 9.0), 'inland Norway');
  assert.ok(!onLand(path, norway, 66.0, 5.0), 'the Norwegian Sea');
});
