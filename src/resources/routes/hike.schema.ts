import { z } from 'zod';
import { idSchema } from '../../shared/id-fields.ts';
import { mapsUrlSchema } from '../../shared/map-links.ts';
import { text } from '../../shared/text.ts';
import {
  CLIMB_M_MAX,
  distanceKmSchema,
  durationMinSchema,
  linkedRecordShape,
  trackInputSchema,
} from './route.schema.ts';

export const hikeIdSchema = idSchema('From create_hike or list_hikes');

export const difficulties = ['easy', 'moderate', 'hard', 'expert'] as const;
export const transitModes = ['train', 'bus', 'cable_car', 'car', 'boat', 'ferry', 'plane'] as const;

export const EQUIPMENT_MAX = 50;
export const HIKE_SOURCES_MAX = 25;
export const TRANSIT_MAX = 20;

const climbSchema = (what: string) =>
  z.number().min(0).max(CLIMB_M_MAX).describe(`${what} in metres, 0 or more; null clears`);

export const transitRowSchema = z.strictObject({
  mode: z.enum(transitModes),
  note: text(300).describe('How to get there this way, at most 300; a row with an empty note is dropped'),
});

/**
 * The editable fields of a hike, exactly as update_hike lists them: strings clear on "";
 * difficulty, the figures, the gear list and the track clear on null; lists replace whole.
 */
export const hikeFieldsSchema = z.object({
  name: text(120).describe('At most 120; "" clears'),
  description: text(5000).describe('At most 5,000; "" clears'),
  difficulty: z.enum(difficulties).nullable(),
  distanceKm: distanceKmSchema.nullable(),
  durationMin: durationMinSchema.nullable(),
  gainM: climbSchema('Total climb').nullable(),
  descentM: climbSchema('Total descent; never derived from gainM').nullable(),
  grade: text(24).describe('A grading scale\'s mark (T3, 5.7, II), at most 24; "" clears'),
  start: text(200).describe('Where it starts, in words, at most 200; "" clears'),
  startMapsUrl: mapsUrlSchema.or(z.literal('')).describe('"" clears'),
  equipment: z
    .array(text(80).min(1))
    .max(EQUIPMENT_MAX)
    .nullable()
    .describe('Special gear, at most 50 items of at most 80; [] means none needed, null means unknown'),
  sources: z
    .array(text(2000).min(1))
    .max(HIKE_SOURCES_MAX)
    .describe('Links or plain text, at most 25, full replacement; never shown to buyers'),
  transit: z
    .array(transitRowSchema)
    .max(TRANSIT_MAX)
    .describe('Getting to the start, at most 20 rows, full replacement'),
  track: trackInputSchema.describe('{points}, a GeoJSON LineString or {gpx}; replaced whole; null removes it'),
});

export type HikeFields = z.infer<typeof hikeFieldsSchema>;

export const hikeSchema = z.object({
  hikeId: z.string(),
  productId: z.string(),
  name: z.string().nullable().describe('null only after the name was cleared'),
  description: z.string().nullable(),
  difficulty: z.enum(difficulties).nullable(),
  distanceKm: z.number().nullable(),
  durationMin: z.number().nullable(),
  gainM: z.number().nullable(),
  descentM: z.number().nullable(),
  grade: z.string().nullable(),
  start: z.string().nullable(),
  startMapsUrl: z.string().nullable(),
  equipment: z.array(z.string()).nullable(),
  transit: z.array(transitRowSchema),
  sources: z.array(z.string()),
  ...linkedRecordShape,
});

export type Hike = z.infer<typeof hikeSchema>;

/** A hike in list_hikes' compact view. */
export const compactHikeSchema = hikeSchema.pick({
  hikeId: true,
  name: true,
  difficulty: true,
  distanceKm: true,
  durationMin: true,
});

export type CompactHike = z.infer<typeof compactHikeSchema>;
