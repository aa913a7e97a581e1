import { z } from 'zod';
import { creditFields } from '../../shared/credit.ts';
import { dateSchema } from '../../shared/dates.ts';
import { latitudeSchema, longitudeSchema } from '../../shared/geo.ts';
import { idSchema } from '../../shared/id-fields.ts';
import { text } from '../../shared/text.ts';
import { webUrlSchema } from '../../shared/urls.ts';

export const mediaIdSchema = idSchema('From upload_media or list_media');
export const spotIdSchema = idSchema('A spot of this guide (spotId from list_spots)');

export const locationVerifiers = ['geotag', 'landmark', 'photographer_caption', 'creator', 'other'] as const;
export const showsKinds = ['spot', 'view_from_spot', 'nearby', 'approach', 'detail', 'other'] as const;

const takenAtSchema = z.strictObject({
  lat: latitudeSchema,
  lon: longitudeSchema,
  precision: z.enum(['gps', 'geocode', 'none']).describe('gps: from the camera; geocode: from a place name'),
});

const showsSchema = z.strictObject({
  kind: z.enum(showsKinds),
  label: text(120).optional(),
});

const focal = (edge: string) => z.number().min(0).max(1).nullable().optional().describe(`0 ${edge}; null: centre`);

/**
 * The metadata of update_media, also accepted with an upload. Bounds the specification leaves
 * open are in docs/decisions/media.md (Photos).
 */
export const mediaMetaFields = {
  alt: text(500).nullable().optional().describe('What the photo shows, for screen readers'),
  caption: text(2000).optional().describe('Stored as sent; "" clears'),
  capturedOn: dateSchema
    .nullable()
    .optional()
    .describe("YYYY-MM-DD, the photographer's local date; upload reads it from the file"),
  credit: creditFields.credit.describe(
    'The photographer, stored as sent and shown as "Photo: <credit>". Only a name the creator gave: never invent one; "" clears',
  ),
  creditUrl: creditFields.creditUrl,
  focalX: focal('left to 1 right'),
  focalY: focal('top to 1 bottom'),
  licence: creditFields.licence,
  locationVerifiedBy: z.enum(locationVerifiers).nullable().optional(),
  reviewNotes: text(5000).nullable().optional().describe('Never shown to buyers; "" clears'),
  shows: showsSchema.nullable().optional(),
  sourcePageUrl: webUrlSchema
    .nullable()
    .optional()
    .describe('The page the photo was licensed from, not the image file'),
  takenAt: takenAtSchema
    .nullable()
    .optional()
    .describe('Where it was taken; upload reads a GPS fix from the file. A gps fix over 2 km from the pin is flagged'),
};

export type MediaMetaInput = {
  [K in keyof typeof mediaMetaFields]?: z.output<(typeof mediaMetaFields)[K]>;
};

/** The metadata as stored and read back: every field, null when unset. */
export interface MediaMeta {
  alt: string | null;
  caption: string | null;
  capturedOn: string | null;
  credit: string | null;
  creditUrl: string | null;
  focalX: number | null;
  focalY: number | null;
  licence: string | null;
  locationVerifiedBy: (typeof locationVerifiers)[number] | null;
  reviewNotes: string | null;
  shows: z.output<typeof showsSchema> | null;
  sourcePageUrl: string | null;
  takenAt: z.output<typeof takenAtSchema> | null;
}

export const META_KEYS = Object.keys(mediaMetaFields) as (keyof MediaMeta)[];

export const emptyMeta = (): MediaMeta =>
  Object.fromEntries(META_KEYS.map((key) => [key, null])) as unknown as MediaMeta;

/** The metadata with the fields sent applied: null clears, and "" clears the text fields. */
export function applyMeta(meta: MediaMeta, input: MediaMetaInput): MediaMeta {
  const next: Record<string, unknown> = { ...meta };
  for (const key of META_KEYS) {
    const value = input[key];
    if (value === undefined) continue;
    next[key] = value === '' ? null : value;
  }
  return next as unknown as MediaMeta;
}

const sizeUrls = z
  .object({ original: z.string(), large: z.string(), medium: z.string(), small: z.string() })
  .describe('Image addresses: the original (metadata stripped), display sizes 2048, 1024 and 400 px on the long edge');

const nullableText = z.string().nullable();

export const mediaSchema = z.object({
  mediaId: z.string(),
  productId: z.string(),
  spotId: nullableText,
  spotKey: nullableText,
  order: z.number(),
  width: z.number(),
  height: z.number(),
  bytes: z.number().describe('Size of the stored original'),
  urls: sizeUrls,
  alt: nullableText,
  caption: nullableText,
  capturedOn: nullableText,
  credit: nullableText,
  creditUrl: nullableText,
  focalX: z.number().nullable(),
  focalY: z.number().nullable(),
  licence: nullableText,
  locationVerifiedBy: z.enum(locationVerifiers).nullable(),
  reviewNotes: nullableText,
  shows: showsSchema.nullable(),
  sourcePageUrl: nullableText,
  takenAt: takenAtSchema.nullable(),
  createdAt: z.number(),
  updatedAt: z.number(),
});

export type Media = z.infer<typeof mediaSchema>;

/** A photo in list_media's compact view: what picks it out, without its files and details. */
export const compactMediaSchema = mediaSchema.pick({
  mediaId: true,
  spotId: true,
  spotKey: true,
  order: true,
  alt: true,
  caption: true,
  credit: true,
});

export type CompactMedia = z.infer<typeof compactMediaSchema>;

/** What an upload reports beside the row: the file's own author, never stored as the credit. */
export const suggestedCreditSchema = z
  .string()
  .optional()
  .describe(
    "The file's EXIF artist or copyright: ask the creator before using it as the credit; never stored by itself",
  );

export const uploadedMediaSchema = mediaSchema.extend({ suggestedCredit: suggestedCreditSchema });

/** A stored image for a chapter cover, an intro photo or the author photo: not listed among the photos. */
export const storedImageSchema = z.object({
  storageId: z.string(),
  productId: z.string(),
  width: z.number(),
  height: z.number(),
  bytes: z.number(),
  urls: sizeUrls,
  suggestedCredit: suggestedCreditSchema,
});
