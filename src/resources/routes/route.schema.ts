import { z } from 'zod';
import { dateSchema } from '../../shared/dates.ts';
import { feesSchema } from '../../shared/fees.ts';
import { idSchema } from '../../shared/id-fields.ts';
import { guideLinksSchema } from '../../shared/links.ts';
import { sourcesSchema } from '../../shared/sources.ts';
import { statusNoticeSchema } from '../../shared/status.ts';
import { requiredText, text } from '../../shared/text.ts';
import { hikeLineSchema, hikeTrackInputSchema, trackFiguresSchema } from '../../shared/tracks/index.ts';

export const routeIdSchema = idSchema('From list_routes; a hikeId works too (a hike is a kind of route)');

export const routeModes = [
  'on_foot',
  'bike',
  'car',
  'campervan',
  'motorbike',
  'public_transport',
  'train',
  'bus',
  'cable_car',
  'boat',
  'ferry',
  'plane',
  'mixed',
] as const;

/** Bounds against typing mistakes: the specification asks only for 0 or more. */
export const DISTANCE_KM_MAX = 20_000;
export const DURATION_MIN_MAX = 43_200;
export const CLIMB_M_MAX = 100_000;

export const distanceKmSchema = z
  .number()
  .min(0)
  .max(DISTANCE_KM_MAX)
  .describe('Kilometres, 0 or more; a track gives its own figure, never written over this one');
export const durationMinSchema = z
  .number()
  .min(0)
  .max(DURATION_MIN_MAX)
  .describe('Minutes of travel, 0 or more (at most 30 days)');

export const includeTrackSchema = z
  .boolean()
  .optional()
  .describe('Also answer each stored line (up to 2,000 points each); left out by default to keep lists short');

export const trackInputSchema = hikeTrackInputSchema.nullable();

/** The places on a route as set_route_facilities takes them and the record reads them back. */
export const routeFacilitySchema = z.strictObject({
  facilityId: idSchema('A place of this guide'),
  order: z.number().describe('Places are listed by ascending order; any number'),
});

const clearableDate = z.union([z.literal(''), dateSchema]);

/**
 * The editable fields of a route, as create_route and update_route take them: "" or null clears
 * strings, null clears nullable fields, arrays are full replacements.
 */
export const routeFieldsSchema = z.object({
  name: requiredText(120).describe('1 to 120 characters, never empty'),
  mode: z.enum(routeModes).nullable().describe('How it is travelled; null clears'),
  description: text(5000).nullable().describe('At most 5,000; "" or null clears'),
  distanceKm: distanceKmSchema.nullable(),
  durationMin: durationMinSchema.nullable(),
  track: trackInputSchema.describe('{points}, a GeoJSON LineString or {gpx}; replaced whole; null removes it'),
  links: guideLinksSchema,
  status: statusNoticeSchema.nullable().describe('Closure or works notice; null clears'),
  fees: feesSchema.describe('Tolls, tickets, at most 30, full replacement'),
  sources: sourcesSchema,
  factsCheckedOn: clearableDate.nullable().describe('YYYY-MM-DD; "" or null clears'),
  reviewBy: clearableDate.nullable().describe('YYYY-MM-DD; stale notices list it once passed; "" or null clears'),
});

export type RouteFields = z.infer<typeof routeFieldsSchema>;

/** What every record of the routes table reads back with, route or hike. */
export const linkedRecordShape = {
  spotKeys: z.array(z.string()).describe('The spots along it, in order (set_route_spots)'),
  facilities: z.array(routeFacilitySchema).describe('Its places by ascending order (set_route_facilities)'),
  trackFigures: trackFiguresSchema.nullable().describe('Measured on the track as sent; null without a track'),
  track: hikeLineSchema.optional().describe('The stored line; only when the list was asked includeTrack'),
  createdAt: z.number(),
  updatedAt: z.number(),
};

export const routeSchema = z.object({
  routeId: z.string(),
  productId: z.string(),
  name: z.string(),
  mode: z.enum(routeModes).nullable(),
  description: z.string().nullable(),
  distanceKm: z.number().nullable(),
  durationMin: z.number().nullable(),
  links: guideLinksSchema,
  status: statusNoticeSchema.nullable(),
  fees: feesSchema,
  sources: sourcesSchema,
  factsCheckedOn: z.string().nullable(),
  reviewBy: z.string().nullable(),
  ...linkedRecordShape,
});

export type Route = z.infer<typeof routeSchema>;

/** A route in list_routes' compact view. */
export const compactRouteSchema = routeSchema.pick({
  routeId: true,
  name: true,
  mode: true,
  distanceKm: true,
  durationMin: true,
});

export type CompactRoute = z.infer<typeof compactRouteSchema>;
