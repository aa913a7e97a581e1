import simplify from 'simplify-js';
import { type Position, STORED_POINTS_MAX } from './track.schema.ts';
import { lonDelta } from './track-figures.ts';

const METERS_PER_DEGREE = 111_195;

interface Projected {
  x: number;
  y: number;
  index: number;
}

/**
 * The points on a local plane in metres (equirectangular about the line's middle latitude), so
 * the tolerance is metres on the ground in every direction: in degrees, a longitude step is
 * shorter than a latitude step everywhere but at the equator.
 */
function project(points: readonly Position[]): Projected[] {
  let south = 90;
  let north = -90;
  for (const p of points) {
    south = Math.min(south, p[1]!);
    north = Math.max(north, p[1]!);
  }
  const xScale = METERS_PER_DEGREE * Math.cos(((south + north) / 2) * (Math.PI / 180));
  let lon = points[0]![0]!;
  let prev = lon;
  return points.map((p, index) => {
    lon += lonDelta(prev, p[0]!);
    prev = p[0]!;
    return { x: lon * xScale, y: p[1]! * METERS_PER_DEGREE, index };
  });
}

export interface Simplified {
  points: Position[];
  /** The Douglas-Peucker tolerance used, in metres; 0 when the line was kept whole. */
  toleranceM: number;
}

/**
 * A line of at most `cap` points. A line within the cap is kept as given; a longer one gets the
 * smallest tolerance (to about 3%) that brings it under the cap, so it keeps as much of its shape
 * as the cap allows. Kept points keep their elevations; the first and last are always kept.
 */
export function simplifyToCap(points: readonly Position[], cap = STORED_POINTS_MAX): Simplified {
  if (points.length <= cap) return { points: [...points], toleranceM: 0 };
  const projected = project(points);
  // Douglas-Peucker alone (highQuality): every dropped point stays within the tolerance of the
  // line. The radial pre-pass would be no faster here and could double that distance.
  const run = (tolerance: number) => simplify(projected, tolerance, true) as Projected[];
  let low = 0;
  let high = 1;
  let best = run(high);
  while (best.length > cap) {
    low = high;
    high *= 2;
    best = run(high);
  }
  while (high - low > high / 32) {
    const middle = (low + high) / 2;
    const kept = run(middle);
    if (kept.length <= cap) {
      high = middle;
      best = kept;
    } else {
      low = middle;
    }
  }
  return { points: best.map((p) => points[p.index]!), toleranceM: Math.ceil(high * 100) / 100 };
}
