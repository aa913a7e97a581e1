import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '../../src/core/errors.ts';
import { simplifyToCap } from '../../src/shared/tracks/simplify-track.ts';
import { type Position, STORED_POINTS_MAX, type TrackFigures } from '../../src/shared/tracks/track.schema.ts';
import { prepareTrack } from '../../src/shared/tracks/track.ts';
import {
  bboxOf,
  climbOf,
  figureWarnings,
  haversineMeters,
  measureTrack,
} from '../../src/shared/tracks/track-figures.ts';
import { generateHike, toGpx } from '../helpers/generated-track.ts';

const within = (actual: number, expected: number, share: number, what: string) =>
  assert.ok(
    Math.abs(actual - expected) <= expected * share,
    `${what}: ${actual} is not within ${share * 100}% of ${expected.toFixed(2)}`,
  );

/** Whether every point of `line` is a point of `track`, in the same order. */
function isSubsequence(line: readonly Position[], track: readonly Position[]): boolean {
  let j = 0;
  for (const p of line) {
    while (j < track.length && track[j] !== p) j += 1;
    if (j === track.length) return false;
    j += 1;
  }
  return true;
}

/** Metres from p to the segment a-b, on a plane about p (fine at trail scale). */
function toSegment(p: Position, a: Position, b: Position): number {
  const k = 111_195;
  const c = Math.cos((p[1]! * Math.PI) / 180);
  const [ax, ay] = [(a[0]! - p[0]!) * k * c, (a[1]! - p[1]!) * k];
  const [bx, by] = [(b[0]! - p[0]!) * k * c, (b[1]! - p[1]!) * k];
  const [dx, dy] = [bx - ax, by - ay];
  const length2 = dx * dx + dy * dy;
  const t = length2 === 0 ? 0 : Math.max(0, Math.min(1, -(ax * dx + ay * dy) / length2));
  return Math.hypot(ax + t * dx, ay + t * dy);
}

/** The farthest any point of the track lies from the stretch of the simplified line it was dropped from. */
function farthestFrom(line: readonly Position[], track: readonly Position[]): number {
  let worst = 0;
  let k = 0;
  for (const p of track) {
    // The line is a subsequence: the track point lies between kept points k and k+1.
    if (k + 1 < line.length && p === line[k + 1]) k += 1;
    worst = Math.max(worst, toSegment(p, line[k]!, line[Math.min(k + 1, line.length - 1)]!));
  }
  return worst;
}

describe('a 30 km hike logged at 1 Hz', () => {
  const hike = generateHike({ lengthKm: 30, noise: 1 });

  it('is a real-looking track', () => {
    assert.ok(hike.points.length > 25_000, `${hike.points.length} points`);
    within(hike.truth.gainM, 1160, 0.05, 'generated climb');
  });

  for (const form of ['points', 'gpx'] as const) {
    it(`sent as ${form}: stored under the cap, figures close to the truth`, async () => {
      const input = form === 'points' ? { points: hike.points } : { gpx: toGpx(hike.points, 3) };
      const { line, figures, warnings } = await prepareTrack(input, 'track');
      assert.equal(line.type, 'LineString');
      assert.ok(line.coordinates.length <= STORED_POINTS_MAX, `${line.coordinates.length} stored points`);
      assert.ok(line.coordinates.length > STORED_POINTS_MAX * 0.9, 'the cap is used, so the shape is kept');
      assert.equal(figures.pointCount, hike.points.length);
      within(figures.distanceKm, hike.truth.distanceKm, 0.03, 'distance');
      within(figures.gainM!, hike.truth.gainM, 0.05, 'gain');
      within(figures.descentM!, hike.truth.descentM, 0.05, 'descent');
      assert.deepEqual(line.coordinates[0], hike.points[0]);
      assert.deepEqual(line.coordinates.at(-1), hike.points.at(-1));
      assert.ok(
        line.coordinates.every((p) => p.length === 3),
        'kept points keep their elevation',
      );
      assert.equal(warnings.length, 1, JSON.stringify(warnings));
      assert.match(warnings[0]!, /points were simplified to 1,\d{3} for storage .*measured on all of them/);
    });
  }

  it('simplifies by keeping points of the track, none farther from the line than the tolerance', () => {
    const { points, toleranceM } = simplifyToCap(hike.points);
    assert.ok(points.length <= STORED_POINTS_MAX);
    assert.ok(isSubsequence(points, hike.points), 'every stored point is a logged point, in order');
    assert.ok(toleranceM > 0 && toleranceM < 1, `tolerance ${toleranceM} m`);
    const farthest = farthestFrom(points, hike.points);
    assert.ok(
      farthest <= toleranceM * 1.01 + 0.01,
      `the line keeps its shape (a point is ${farthest.toFixed(2)} m off)`,
    );
  });

  it('measures the same noiseless loop within a few percent', () => {
    const clean = generateHike({ lengthKm: 12, noise: 0, seed: 3 });
    const figures = measureTrack(clean.points);
    within(figures.distanceKm, 12, 0.01, 'distance');
    within(figures.gainM!, clean.truth.gainM, 0.06, 'gain');
  });
});

describe('track figures', () => {
  it('measures distance along the ground', () => {
    // One degree of latitude on the mean sphere.
    within(haversineMeters([11, 46], [11, 47]), 111_195, 0.0001, 'a degree of latitude');
    within(haversineMeters([179.9, 0], [-179.9, 0]), 22_239, 0.001, 'across the antimeridian');
    const f = measureTrack([
      [11, 46],
      [11, 46.01],
      [11, 46.02],
    ]);
    assert.equal(f.distanceKm, 2.22);
    assert.equal(f.gainM, null);
    assert.equal(f.descentM, null);
    assert.equal(f.pointCount, 3);
  });

  it('counts climb past a 5 m threshold, so standing still adds nothing', () => {
    const jitter = Array.from({ length: 1000 }, (_, i) => 1000 + 1.5 * Math.sin(i) + (i % 3) * 0.8);
    assert.deepEqual(climbOf(jitter), { gain: 0, descent: 0 });
    assert.deepEqual(climbOf([1000, 1010, 1006, 1030, 1000]), { gain: 30, descent: 30 }, 'a 4 m dip is not a descent');
    assert.deepEqual(climbOf([1000, 1010, 1005, 1030, 1000]), { gain: 35, descent: 35 }, 'a 5 m dip is');
    // The last 4 m never got past the threshold: a climb counts in steps of 5 m or more.
    assert.deepEqual(climbOf([100, 104, 108, 112]), { gain: 8, descent: 0 });
  });

  it('gives a bbox as [west, south, east, north], west above east across the antimeridian', () => {
    assert.deepEqual(
      bboxOf([
        [11.9, 46.5],
        [11.8, 46.7],
        [12.1, 46.6],
      ]),
      [11.8, 46.5, 12.1, 46.7],
    );
    assert.deepEqual(
      bboxOf([
        [179.95, -16.8],
        [-179.97, -16.7],
        [-179.9, -16.75],
      ]),
      [179.95, -16.8, -179.9, -16.7],
    );
    assert.deepEqual(
      bboxOf([
        [-180, 1],
        [180, 2],
      ]),
      [-180, 1, -180, 2],
    );
  });

  it('keeps a line within the cap as it was sent', async () => {
    const points = generateHike({ lengthKm: 1, noise: 1 }).points.slice(0, 500);
    const { points: kept, toleranceM } = simplifyToCap(points);
    assert.equal(toleranceM, 0);
    assert.deepEqual(kept, points);
    const { warnings, line } = await prepareTrack({ type: 'LineString', coordinates: points }, 'track');
    assert.deepEqual(warnings, []);
    assert.deepEqual(line.coordinates, points);
  });

  it('refuses a bad GPX at the path given', async () => {
    await assert.rejects(
      () => prepareTrack({ gpx: '<gpx><trk>' }, 'hikes[2].track'),
      (err: unknown) =>
        err instanceof ApiError && err.code === 'invalid_request' && err.message.startsWith('hikes[2].track.gpx: '),
    );
  });
});

describe('figures the creator gave against the track', () => {
  const track: TrackFigures = { distanceKm: 15, gainM: 1000, descentM: 900, pointCount: 10, bbox: [11, 46, 12, 47] };

  it('are accepted silently within a fifth', () => {
    assert.deepEqual(figureWarnings({ distanceKm: 17.9, gainM: 801, descentM: 1080 }, track), []);
    assert.deepEqual(figureWarnings({ distanceKm: 12.1, gainM: 1199 }, track), []);
    assert.deepEqual(figureWarnings({}, track), []);
    assert.deepEqual(figureWarnings({ distanceKm: null, gainM: null, descentM: null }, track), []);
  });

  it('get one sentence each past a fifth, and are never replaced', () => {
    const given = { distanceKm: 11.9, gainM: 1300, descentM: 500 };
    const warnings = figureWarnings(given, track);
    assert.equal(warnings.length, 3);
    assert.match(warnings[0]!, /^distanceKm 11.9 km differs from the track's distance of 15 km by more than a fifth\./);
    assert.match(warnings[0]!, /send distanceKm 15 if the track is right/);
    assert.match(warnings[1]!, /^gainM 1300 m differs from the track's climb of 1000 m/);
    assert.match(warnings[2]!, /^descentM 500 m differs from the track's descent of 900 m/);
    assert.deepEqual(given, { distanceKm: 11.9, gainM: 1300, descentM: 500 });
  });

  it('skip what the track cannot say, and differences too small to matter', () => {
    const flat: TrackFigures = { ...track, distanceKm: 0.3, gainM: null, descentM: null };
    assert.deepEqual(figureWarnings({ gainM: 500, descentM: 0 }, flat), []);
    assert.deepEqual(figureWarnings({ distanceKm: 0.4 }, flat), [], '100 m on a short walk');
    assert.equal(figureWarnings({ distanceKm: 0.45 }, flat).length, 1);
    const gentle: TrackFigures = { ...track, gainM: 40, descentM: 40 };
    assert.deepEqual(figureWarnings({ gainM: 60, descentM: 20 }, gentle), [], '20 m of climb on a gentle walk');
    assert.equal(figureWarnings({ gainM: 61 }, gentle).length, 1);
  });
});
