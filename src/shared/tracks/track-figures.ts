import type { Bbox } from '../geo.ts';
import type { Position, TrackFigures } from './track.schema.ts';

/** The mean Earth radius (IUGG), which haversine distances use. */
const EARTH_RADIUS_M = 6_371_008.8;
const RAD = Math.PI / 180;

/**
 * GPS elevation wanders by a few metres while the hiker stands still; a climb counts only once
 * it has risen this far above the last turning point (and likewise down), so wander is not
 * added up as climbing. Measured on generated 1 Hz tracks: see test/hikes.
 */
export const CLIMB_THRESHOLD_M = 5;

/** Ground distance between two points in metres (haversine; elevation left out). */
export function haversineMeters(a: Position, b: Position): number {
  const dLat = (b[1]! - a[1]!) * RAD;
  const dLon = (b[0]! - a[0]!) * RAD;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a[1]! * RAD) * Math.cos(b[1]! * RAD) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** A longitude difference folded into -180..180, so a line across the antimeridian stays short. */
export function lonDelta(from: number, to: number): number {
  const d = to - from;
  return d > 180 ? d - 360 : d < -180 ? d + 360 : d;
}

/**
 * [west, south, east, north]. A line across the antimeridian gets west greater than east, as
 * the guide's region bbox does, instead of a box around the whole Earth.
 */
export function bboxOf(points: readonly Position[]): Bbox {
  let south = 90;
  let north = -90;
  // Longitudes unwrapped along the line (each step the short way round); the box keeps the
  // longitudes as sent at its unwrapped extremes, so no rounding creeps in.
  let lon = points[0]![0]!;
  let low = { unwrapped: lon, sent: lon };
  let high = low;
  let prev = lon;
  for (const point of points) {
    const [x, y] = point as [number, number];
    south = Math.min(south, y);
    north = Math.max(north, y);
    lon += lonDelta(prev, x);
    prev = x;
    if (lon < low.unwrapped) low = { unwrapped: lon, sent: x };
    if (lon > high.unwrapped) high = { unwrapped: lon, sent: x };
  }
  if (high.unwrapped - low.unwrapped >= 360) return [-180, south, 180, north];
  return [low.sent, south, high.sent, north];
}

/** Climb and descent in metres over a run of elevations, counting only moves past the threshold. */
export function climbOf(
  elevations: Iterable<number>,
  threshold = CLIMB_THRESHOLD_M,
): { gain: number; descent: number } {
  let gain = 0;
  let descent = 0;
  let reference: number | undefined;
  for (const ele of elevations) {
    if (reference === undefined) reference = ele;
    else if (ele - reference >= threshold) {
      gain += ele - reference;
      reference = ele;
    } else if (reference - ele >= threshold) {
      descent += reference - ele;
      reference = ele;
    }
  }
  return { gain, descent };
}

function* elevationsOf(points: readonly Position[]): Generator<number> {
  for (const point of points) if (point[2] !== undefined) yield point[2];
}

/** The figures of a track, from every point it has: measure before simplifying. */
export function measureTrack(points: readonly Position[]): TrackFigures {
  let meters = 0;
  for (let i = 1; i < points.length; i++) meters += haversineMeters(points[i - 1]!, points[i]!);
  const hasElevation = points.some((p) => p[2] !== undefined);
  const { gain, descent } = climbOf(elevationsOf(points));
  return {
    distanceKm: Math.round(meters / 10) / 100,
    gainM: hasElevation ? Math.round(gain) : null,
    descentM: hasElevation ? Math.round(descent) : null,
    pointCount: points.length,
    bbox: bboxOf(points),
  };
}

/** The figures a creator gave a hike; null or absent means not given. */
export interface GivenFigures {
  distanceKm?: number | null | undefined;
  gainM?: number | null | undefined;
  descentM?: number | null | undefined;
}

/**
 * "More than a fifth" of the track's own figure; the floors keep a short or flat walk from being
 * flagged over a difference nobody would notice (100 m of distance, 20 m of climb: four times the
 * climb threshold, within which two honest measurements of one walk differ).
 */
const TOLERANCE = 1 / 5;
const checks = [
  { field: 'distanceKm', measured: 'distanceKm', unit: ' km', floor: 0.1, what: 'distance' },
  { field: 'gainM', measured: 'gainM', unit: ' m', floor: 20, what: 'climb' },
  { field: 'descentM', measured: 'descentM', unit: ' m', floor: 20, what: 'descent' },
] as const;

/**
 * One sentence per figure the creator gave that differs from the track's by more than a fifth.
 * The creator's figures stand: the sentences ask to check them, never replace them.
 */
export function figureWarnings(given: GivenFigures, track: TrackFigures): string[] {
  const warnings: string[] = [];
  for (const c of checks) {
    const mine = given[c.field];
    const theirs = track[c.measured];
    if (mine === null || mine === undefined || theirs === null) continue;
    const difference = Math.abs(mine - theirs);
    // A hair of slack: 0.4 - 0.3 is 0.10000000000000003 in floating point.
    if (difference <= c.floor + 1e-9 || difference <= theirs * TOLERANCE + 1e-9) continue;
    warnings.push(
      `${c.field} ${mine}${c.unit} differs from the track's ${c.what} of ${theirs}${c.unit} by more than a fifth. ` +
        `The value given is kept: check it with the creator, and send ${c.field} ${theirs} if the track is right.`,
    );
  }
  return warnings;
}
