import { z } from 'zod';
import { withCommas } from '../text.ts';

/**
 * A 30 km hike logged at one point a second is about 30,000 points; simplified to 2,000 it keeps
 * a point every 15 m on average, which at trail scale is the drawn line itself (the tolerance
 * that gets there is a few metres: see docs/decisions/hikes.md, Hike tracks).
 */
export const STORED_POINTS_MAX = 2000;
/** What a track may bring in before simplification: far above any day's logging at 1 Hz. */
export const INPUT_POINTS_MAX = 100_000;
/** 5 MiB of GPX text: about 50,000 track points with time stamps. */
export const GPX_CHARS_MAX = 5 * 1024 * 1024;

export const ELEVATION_MIN = -500;
export const ELEVATION_MAX = 9000;

/** How many bad points one refusal lists: enough to see a pattern, never a flood. */
const PROBLEMS_LISTED = 20;

/** [lon, lat] or [lon, lat, elevation]: GeoJSON order, longitude first. */
export type Position = number[];

/**
 * What is wrong with one point, as a sentence, or undefined when it is in range. An array point
 * is named by position, and a latitude out of range that would fit as a longitude hints at the
 * most common mistake (latitude first); a GPX point is named by its attributes.
 */
export function pointProblem(point: readonly number[], form: 'array' | 'attributes' = 'array'): string | undefined {
  const [lon = Number.NaN, lat = Number.NaN, ele] = point;
  const nth = (n: string) => (form === 'array' ? ` (${n} number)` : '');
  if (!Number.isFinite(lon) || lon < -180 || lon > 180) {
    return `longitude ${lon}${nth('1st')} is outside -180 to 180`;
  }
  if (!Number.isFinite(lat) || lat < -90 || lat > 90) {
    const swapped = form === 'array' && Math.abs(lon) <= 90 ? '; points are [lon, lat], longitude first' : '';
    return `latitude ${lat}${nth('2nd')} is outside -90 to 90${swapped}`;
  }
  if (ele !== undefined && (!Number.isFinite(ele) || ele < ELEVATION_MIN || ele > ELEVATION_MAX)) {
    return `elevation ${ele} m${nth('3rd')} is outside ${ELEVATION_MIN} to ${ELEVATION_MAX}`;
  }
  return undefined;
}

// Written as an array of 2 or 3 numbers, not a tuple: prefixItems with `items: false` reads as
// "no items" to draft-07 validators. The ranges are checked by the line's refinement instead.
const barePositionSchema = z.array(z.number()).min(2).max(3);
const positionSchema = barePositionSchema.describe('Longitude first: [lon, lat] or [lon, lat, elevation in metres]');

/**
 * The points of a line: ranges checked per point (invalid_request naming the index), and one arity
 * for the whole line, so elevations are either the line's or absent, never a partial profile.
 */
const positionsOf = (position: typeof barePositionSchema) =>
  z
    .array(position)
    .min(2)
    .max(INPUT_POINTS_MAX)
    .superRefine((points, ctx) => {
      let listed = 0;
      const arity = points[0]?.length;
      for (let i = 0; i < points.length && listed < PROBLEMS_LISTED; i++) {
        const point = points[i]!;
        let message = pointProblem(point);
        if (message === undefined && point.length !== arity) {
          message = `has ${point.length} numbers but the first point has ${arity}: give every point an elevation or none`;
        }
        if (message !== undefined) {
          ctx.addIssue({ code: 'custom', path: [i], message, input: point });
          listed += 1;
        }
      }
    });

const pointsForm = z.strictObject({
  points: positionsOf(positionSchema).describe(
    'In walking order; every point with an elevation or none. Lines over ' +
      `${withCommas(STORED_POINTS_MAX)} points are simplified; the figures come from every point sent`,
  ),
});

const lineStringForm = z
  .strictObject({
    type: z.literal('LineString'),
    // Said once, on `points`: "as in `points`" carries the order of longitude and latitude.
    coordinates: positionsOf(barePositionSchema).describe('The points, as in `points`'),
  })
  .describe('GeoJSON, as a record reads back: it can be sent back unchanged');

const gpxForm = z.strictObject({
  gpx: z
    .string()
    .min(1)
    .max(GPX_CHARS_MAX)
    .describe(
      'GPX 1.1 or 1.0 as text: track points (trk/trkseg/trkpt with ele), segments and tracks joined in ' +
        'order; without any, route points (rte/rtept); waypoints ignored',
    ),
});

/** The input of a hike's `track`: points, a GeoJSON LineString or a GPX document. */
export const hikeTrackInputSchema = z
  .union([pointsForm, lineStringForm, gpxForm])
  .describe('HikeTrack: the line walked, in one of three forms');

export type HikeTrackInput = z.infer<typeof hikeTrackInputSchema>;

/** The stored line, as a hike record reads back: a GeoJSON LineString a map draws as it is. */
export const hikeLineSchema = z
  .object({
    type: z.literal('LineString'),
    coordinates: z
      .array(z.array(z.number()))
      .describe(`[lon, lat] or [lon, lat, elevation] points in walking order, at most ${STORED_POINTS_MAX}`),
  })
  .describe('HikeTrack as stored: a GeoJSON LineString');

export type HikeLine = { type: 'LineString'; coordinates: Position[] };

/** What the full track measures, before simplification. */
export const trackFiguresSchema = z
  .object({
    distanceKm: z.number().describe('Along the line, on the ground plane (haversine), to 10 m'),
    gainM: z.number().nullable().describe('Total climb in whole metres; null when the track has no elevations'),
    descentM: z.number().nullable().describe('Total descent in whole metres; null when the track has no elevations'),
    pointCount: z.number().describe('Points in the track as sent, before simplification'),
    // Four numbers, not a tuple: a tuple's `items: false` reads as "no items" to draft-07.
    bbox: z
      .array(z.number())
      .length(4)
      .describe('[west, south, east, north] in degrees; west is above east for a line across the antimeridian'),
  })
  .describe('TrackFigures: measured on the track as sent; never written over the figures the creator gave');

export type TrackFigures = z.infer<typeof trackFiguresSchema>;
