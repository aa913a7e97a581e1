import { z } from 'zod';
import { dateSchema } from '../../shared/dates.ts';
import { feesSchema } from '../../shared/fees.ts';
import { latitudeSchema, longitudeSchema } from '../../shared/geo.ts';
import { guideLinksSchema } from '../../shared/links.ts';
import { mapLinkSchema, spotPinSchema } from '../../shared/pins.ts';
import { scheduleSchema } from '../../shared/schedule.ts';
import { sourcesSchema } from '../../shared/sources.ts';
import { statusNoticeSchema } from '../../shared/status.ts';
import { nameText, text } from '../../shared/text.ts';

export const spotIdSchema = z.string().min(1).max(100).describe('From list_spots or create_spot');

export const spotKeySchema = z
  .string()
  .min(1)
  .max(63)
  .refine((s) => /^[a-z0-9][a-z0-9_-]*$/.test(s), {
    message: 'must be lowercase letters, digits, hyphens and underscores, starting with a letter or digit',
  })
  .describe(
    "The caller's own reference for the spot: lowercase letters, digits, hyphens and underscores, starting with a " +
      'letter or digit; unique in the guide and immutable; derived from the name when omitted',
  );

const clearableDate = z.union([z.literal(''), dateSchema]);

/**
 * The editable fields of a spot, as create_spot, update_spot and upsert_spots take them. Strings
 * clear on "", nullable fields on null, arrays are full replacements, and custom values merge by
 * key (null removes one).
 */
export const spotFieldsSchema = z.object({
  name: nameText(120).describe('The spot name, 1 to 120 characters'),
  description: text(10_000).describe('What the buyer finds there, at most 10,000; "" clears'),
  lat: latitudeSchema.nullable().describe('Pin latitude; give lat and lon together; null clears both'),
  lon: longitudeSchema.nullable().describe('Pin longitude; give lat and lon together; null clears both'),
  pins: z.array(spotPinSchema).max(12).describe('Extra points (viewpoint, trailhead…), at most 12, full replacement'),
  mapLinks: z.array(mapLinkSchema).max(8).describe('At most 8, full replacement'),
  links: guideLinksSchema,
  status: statusNoticeSchema.nullable().describe('Closure or works notice; null clears'),
  fees: feesSchema,
  schedule: scheduleSchema.nullable().describe('Structured opening hours; null clears'),
  hours: text(500).describe('Opening hours in words, the fallback to schedule, at most 500; "" clears'),
  sources: sourcesSchema,
  areaId: z.string().min(1).nullable().describe('An area of this guide whose rules apply here; null clears'),
  archived: z
    .boolean()
    .describe("true hides the spot from buyers and keeps it (the way to retire a sold guide's spot)"),
  customValues: z
    .record(z.string(), z.unknown())
    .describe(
      "Values of the custom properties by key, as each property's kind takes them: shortLabel one line, longSection " +
        'text, number a number, date YYYY-MM-DD, singleSelect an option id, checkbox a list of option ids; null removes one',
    ),
  customNotes: z
    .record(z.string(), z.union([z.string(), z.null()]))
    .describe('A note per custom property key, at most 1,000 each; "" or null removes one'),
  reviewNotes: text(5_000).describe('For reviewers, never shown to buyers, at most 5,000; "" clears'),
  factsCheckedOn: clearableDate.describe('When the facts were last checked, YYYY-MM-DD; "" clears'),
  reviewBy: clearableDate.describe('When the facts need checking again, YYYY-MM-DD; "" clears'),
});

export type SpotFields = z.infer<typeof spotFieldsSchema>;

export const spotSchema = z.object({
  spotId: z.string(),
  productId: z.string(),
  spotKey: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  lat: z.number().nullable(),
  lon: z.number().nullable(),
  timeZone: z.string().nullable(),
  pins: z.array(spotPinSchema),
  mapLinks: z.array(mapLinkSchema),
  links: guideLinksSchema,
  status: statusNoticeSchema.nullable(),
  fees: feesSchema,
  schedule: scheduleSchema.nullable(),
  hours: z.string().nullable(),
  sources: sourcesSchema,
  areaId: z.string().nullable(),
  archived: z.boolean(),
  customValues: z.record(z.string(), z.unknown()),
  customNotes: z.record(z.string(), z.string()),
  reviewNotes: z.string().nullable(),
  factsCheckedOn: z.string().nullable(),
  reviewBy: z.string().nullable(),
  order: z.number(),
  createdAt: z.number(),
  updatedAt: z.number(),
});

export type Spot = z.infer<typeof spotSchema>;

/** A spot in list_spots' compact view: what picks it out, without its content. */
export const compactSpotSchema = z.object({
  spotId: z.string(),
  spotKey: z.string(),
  name: z.string(),
  lat: z.number().nullable(),
  lon: z.number().nullable(),
  areaId: z.string().nullable(),
  archived: z.boolean(),
});

export type CompactSpot = z.infer<typeof compactSpotSchema>;

/** A spot in a compact write answer: the key the assistant sent and the id it was given. */
export const spotRefSchema = spotSchema.pick({ spotId: true, spotKey: true });

export type SpotRef = z.infer<typeof spotRefSchema>;
