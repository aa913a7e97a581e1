import { z } from 'zod';
import type { EditedRecord } from '../../core/stale-editor.ts';
import { idSchema } from '../../shared/id-fields.ts';
import { nameText, text } from '../../shared/text.ts';
import { routeModes } from '../routes/index.ts';

/** The specification's list for the whole trip. */
export const travelModes = ['car', 'public_transport', 'campervan', 'bike', 'on_foot', 'boat', 'mixed'] as const;
/** When in the day a stop happens, in the day's order. */
export const whenValues = ['sunrise', 'morning', 'midday', 'afternoon', 'sunset', 'evening', 'night'] as const;

/** Bounds the specification leaves open: a two-month trip, a full day, notes a paragraph or two long. */
export const DAYS_MAX = 60;
export const STOPS_MAX = 30;
export const TITLE_MAX = 120;
export const DAY_NOTE_MAX = 2000;
export const STOP_NOTE_MAX = 1000;
export const PLACE_TEXT_MAX = 120;
export const OVERNIGHT_NOTE_MAX = 500;
export const SEASON_NOTE_MAX = 300;

export const itineraryIdSchema = idSchema('The itinerary id (itineraryId) from list_itineraries');

const when = z.enum(whenValues).optional();
const refId = (describe: string) => z.string().min(1).max(100).describe(describe);

/** Stops by kind; text left empty is stored as absent. */
export const stopSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('spot'),
    spotKey: refId('spotKey of a spot of this guide'),
    when,
    note: text(STOP_NOTE_MAX).optional(),
  }),
  z.strictObject({ kind: z.literal('place'), facilityId: refId('A place of this guide'), when }),
  z.strictObject({ kind: z.literal('route'), routeId: refId('A route or hike of this guide'), when }),
  z.strictObject({
    kind: z.literal('travel'),
    mode: z.enum(routeModes),
    from: text(PLACE_TEXT_MAX).optional(),
    to: text(PLACE_TEXT_MAX).optional(),
    when,
  }),
  z.strictObject({ kind: z.literal('note'), title: text(TITLE_MAX).optional(), note: text(DAY_NOTE_MAX).optional() }),
]);

export const overnightSchema = z
  .strictObject({
    facilityId: refId('A place of this guide, ideally a stay (kind hut)').optional(),
    name: text(PLACE_TEXT_MAX).optional().describe('Where, in words, when it is not a place of the guide'),
    note: text(OVERNIGHT_NOTE_MAX).optional(),
  })
  .describe('Where the night is spent: facilityId or name');

export const daySchema = z.strictObject({
  title: text(TITLE_MAX).optional(),
  note: text(DAY_NOTE_MAX).optional(),
  stops: z.array(stopSchema).max(STOPS_MAX).default([]),
  overnight: overnightSchema.optional(),
});

export const daysSchema = z
  .array(daySchema)
  .max(DAYS_MAX)
  .describe(
    `Full replacement, in trip order; at most ${DAYS_MAX} days of ${STOPS_MAX} stops. ` +
      `when: ${whenValues.join(', ')}; travel mode: ${routeModes.join(', ')}`,
  );

export const seasonSchema = z
  .strictObject({
    months: z.array(z.number().int().min(1).max(12)).max(12).optional().describe('1 to 12, January is 1'),
    note: text(SEASON_NOTE_MAX).optional(),
  })
  .nullable()
  .describe('When to go; null or {} clears');

export const expectedUpdatedAtSchema = z
  .number()
  .int()
  .min(0)
  .describe("The itinerary's updatedAt from your last read or write; if it changed since, 409 stale_editor");

/** What a stale_editor answer to an itinerary editor says (see expectedUpdatedAtSchema). */
export const itineraryEdits: EditedRecord = { name: 'itinerary', readWith: 'get_itinerary' };

/** Fields create_itinerary and update_itinerary take; "" clears text. */
export const itineraryFieldsSchema = z.object({
  name: nameText(120).describe('1 to 120 characters'),
  description: text(300).describe('At most 300; "" clears'),
  body: text(5000).describe('Before-you-go notes, at most 5,000; "" clears'),
  coverMediaId: z.string().min(1).max(100).nullable().describe('A photo of this guide (list_media); null clears'),
  travelMode: z.enum(travelModes).nullable(),
  season: seasonSchema,
  startsAt: text(120).describe('Where or when it starts, in words; "" clears'),
  endsAt: text(120).describe('Where or when it ends, in words; "" clears'),
});

export type Stop = z.output<typeof stopSchema>;
export type Day = z.output<typeof daySchema>;
export type Season = { months?: number[]; note?: string };

/** The record as read back. Days are described where they are set, to keep tool lists short. */
export const itinerarySchema = z.object({
  itineraryId: z.string(),
  productId: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  body: z.string().nullable(),
  coverMediaId: z.string().nullable(),
  travelMode: z.enum(travelModes).nullable(),
  season: z.object({ months: z.array(z.number()).optional(), note: z.string().optional() }).nullable(),
  startsAt: z.string().nullable(),
  endsAt: z.string().nullable(),
  days: z.array(z.record(z.string(), z.unknown())).describe('ItineraryDay as set_itinerary_days takes it'),
  order: z.number(),
  archived: z.boolean(),
  createdAt: z.number(),
  updatedAt: z.number().describe('Send it back as expectedUpdatedAt on your next edit'),
});

export type Itinerary = z.infer<typeof itinerarySchema>;

/** An itinerary in list_itineraries' compact view: what picks it out, and its days counted. */
export const compactItinerarySchema = itinerarySchema
  .pick({ itineraryId: true, name: true, order: true, archived: true, updatedAt: true })
  .extend({ dayCount: z.number() });

export type CompactItinerary = z.infer<typeof compactItinerarySchema>;
