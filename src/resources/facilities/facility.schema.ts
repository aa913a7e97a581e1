import { z } from 'zod';
import { countryCodeSchema } from '../../shared/codes.ts';
import { dateSchema, orderedDates, weekdaysSchema } from '../../shared/dates.ts';
import { feesSchema } from '../../shared/fees.ts';
import { latitudeSchema, longitudeSchema, unpairedCoordinate } from '../../shared/geo.ts';
import { guideLinksSchema } from '../../shared/links.ts';
import { mapsUrlSchema } from '../../shared/map-links.ts';
import { fixedListNote } from '../../shared/notes.ts';
import { scheduleSchema } from '../../shared/schedule.ts';
import { sourcesSchema } from '../../shared/sources.ts';
import { statusNoticeSchema } from '../../shared/status.ts';
import { nameText, text } from '../../shared/text.ts';
import { webUrlSchema } from '../../shared/urls.ts';

export const placeKinds = ['hut', 'cable_car', 'activity', 'food', 'parking'] as const;
export type PlaceKind = (typeof placeKinds)[number];

/** Sub-types by kind; the first is the default when none is given. */
export const placeTypes: Record<PlaceKind, readonly string[]> = {
  hut: ['hut', 'hotel', 'guesthouse', 'hostel', 'campsite', 'rental', 'liveaboard', 'pontoon'],
  cable_car: [
    'cable_car',
    'chairlift',
    'funicular',
    'cog_railway',
    'train',
    'bus',
    'ferry',
    'shuttle',
    'flight',
    'helicopter',
    'tram',
    'metro',
    'taxi',
    'bike_rental',
    'jeep',
    'elevator',
    'toboggan',
    'hub',
  ],
  activity: ['guided_tour', 'boat_tour', 'balloon', 'scenic_flight', 'jeep_safari', 'gear_rental'],
  food: ['restaurant', 'cafe', 'bar', 'bakery', 'grocery', 'market', 'picnic_site'],
  parking: ['parking_lot', 'parking_garage', 'street', 'campervan'],
};

/** The sub-types of each kind, where the model reads `type`: no enum can say which kind takes which. */
const placeTypesNote = fixedListNote(
  `Sub-type of the kind; null reads as the kind's default (the first). ${placeKinds
    .map((kind) => `${kind}: ${placeTypes[kind].join(', ')}`)
    .join('; ')}`,
);

export const costUnits = [
  'per_person',
  'per_night',
  'per_person_night',
  'per_room',
  'per_vehicle',
  'per_trip',
  'per_hour',
  'per_day',
] as const;

/** Both halves of a coordinate pair, or neither. */
function pairedCoordinates(ctx: z.RefinementCtx, value: Record<string, unknown>, lat: string, lon: string): void {
  const unpaired = unpairedCoordinate(value, lat, lon);
  if (unpaired) ctx.addIssue({ code: 'custom', path: [unpaired.missing], input: undefined, message: unpaired.message });
}

export const parkingInfoSchema = z
  .strictObject({
    fillsBy: text(60).optional().describe('When it is usually full, e.g. "08:30" or "by 9 in summer", at most 60'),
    rule: text(300).optional().describe('Parking rule, e.g. "no overnight stays", at most 300'),
  })
  .describe('ParkingInfo');

export const placeConditionsSchema = z
  .strictObject({
    minAge: z.number().int().min(0).max(99).optional().describe('Youngest age admitted'),
    guestsOnly: z.boolean().optional().describe('Only for guests of the place'),
    swimmersOnly: z.boolean().optional(),
    luggageKg: z.number().min(0).max(1000).optional().describe('Luggage allowance in kg'),
    soldAsPackage: z.boolean().optional().describe('Only sold as part of a package'),
    cashOnly: z.boolean().optional(),
  })
  .describe('PlaceConditions: shown as chips');

export const activityInfoSchema = z
  .strictObject({
    meetingPoint: text(200).optional().describe('Where the activity starts, at most 200'),
    meetingLat: latitudeSchema.optional(),
    meetingLon: longitudeSchema.optional(),
    durationMin: z.number().int().min(1).max(43_200).optional().describe('Duration in minutes (up to 30 days)'),
    departures: text(300).optional().describe('When it departs, in words, at most 300'),
    requiredToSee: z.boolean().optional().describe('The spot can only be seen on this activity'),
    authorizedBy: text(120).optional().describe('The authority that licenses the operator, at most 120'),
    authorizedByUrl: webUrlSchema.optional(),
  })
  .superRefine((info, ctx) => pairedCoordinates(ctx, info, 'meetingLat', 'meetingLon'))
  .describe('ActivityInfo');

export const transportStopSchema = z
  .strictObject({
    name: text(120).min(1).describe('Stop name, at most 120'),
    lat: latitudeSchema.optional(),
    lon: longitudeSchema.optional(),
    registerId: text(60).optional().describe("The stop's id in the operator's or a public register, at most 60"),
    note: text(300).optional(),
  })
  .superRefine((stop, ctx) => pairedCoordinates(ctx, stop, 'lat', 'lon'));

export const transportInfoSchema = z
  .strictObject({
    stops: z.array(transportStopSchema).max(50).optional().describe('Stops in travel order, at most 50'),
    serviceDays: weekdaysSchema.optional().describe('Days it runs, 1 (Monday) to 7 (Sunday)'),
    timetableUrl: webUrlSchema.optional(),
    timetableValidFrom: dateSchema.optional(),
    timetableValidUntil: dateSchema.optional().describe('Stale notices flag the timetable after this day'),
    verifyBeforeTravel: z.boolean().optional().describe('Buyers are told to check the timetable before travelling'),
  })
  .superRefine((info, ctx) => orderedDates(ctx, info, 'timetableValidFrom', 'timetableValidUntil'))
  .describe('TransportInfo');

export const extraPropSchema = z
  .strictObject({
    label: text(60).describe('At most 60'),
    value: text(500).describe('At most 500'),
  })
  .describe('ExtraProp: a row with both sides empty is dropped, a half-empty one refused');

export const facilityIdSchema = z.string().min(1).max(100).describe('The place id (facilityId)');

export const osmIdSchema = z
  .string()
  .refine((s) => /^(node|way|relation)\/[1-9]\d{0,15}$/.test(s), {
    message: 'must be node/<number>, way/<number> or relation/<number>',
  })
  .describe('Open-map reference: node/<n>, way/<n> or relation/<n>');

/**
 * The editable fields of a place, as create_facility and update_facility take them. Null clears a
 * nullable field, "" clears strings where stated, arrays replace whole.
 */
export const placeFieldsSchema = z.object({
  kind: z.enum(placeKinds).describe('hut is a stay, cable_car transport, activity a tour'),
  type: z.string().nullable().describe(placeTypesNote),
  name: nameText(120).describe('At most 120, not empty'),
  operator: text(120).nullable().describe('Who runs it, at most 120; "" or null clears'),
  description: text(5000).nullable().describe('At most 5,000; "" or null clears'),
  costRaw: text(300).nullable().describe('The creator\'s words for the cost, never parsed; "" clears'),
  costUnit: z.enum(costUnits).nullable().describe('null clears'),
  openRaw: text(300).nullable().describe('Season or hours as text, never parsed; "" clears'),
  website: webUrlSchema.nullable().describe('https, or http with a warning; "" or null clears').or(z.literal('')),
  mapsUrl: mapsUrlSchema.nullable().or(z.literal('')).describe('"" clears'),
  extraProps: z.array(extraPropSchema).max(24).describe('At most 24, full replacement'),
  lat: latitudeSchema.nullable(),
  lon: longitudeSchema.nullable(),
  osmId: osmIdSchema.nullable().or(z.literal('')),
  googlePlaceId: text(300).nullable().describe('The map provider\'s place id; "" or null clears'),
  country: countryCodeSchema.nullable().or(z.literal('')),
  links: guideLinksSchema,
  bookingRequired: z.boolean().describe('true shows Booking required'),
  bookingUrl: webUrlSchema.nullable().or(z.literal('')),
  extraKinds: z.array(z.enum(placeKinds)).max(placeKinds.length).describe('Other kinds it also serves as'),
  insideId: z.string().min(1).nullable().describe('facilityId of the place that contains this one (one level only)'),
  needsParentTicket: z.boolean().describe('Entry needs a ticket of the containing place'),
  conditions: placeConditionsSchema.nullable(),
  parking: parkingInfoSchema.nullable(),
  transport: transportInfoSchema.nullable(),
  activity: activityInfoSchema.nullable(),
  gatewayTown: text(120)
    .nullable()
    .describe('The town to base yourself in when the place is far from the spot on purpose; no distance is shown then'),
  status: statusNoticeSchema.nullable(),
  fees: feesSchema,
  schedule: scheduleSchema.nullable(),
  sources: sourcesSchema,
  reviewNotes: text(5000).nullable().describe('Never shown to buyers; "" clears'),
  factsCheckedOn: dateSchema.nullable().or(z.literal('')).describe('YYYY-MM-DD; "" clears'),
  reviewBy: dateSchema
    .nullable()
    .or(z.literal(''))
    .describe('YYYY-MM-DD; readiness and publish status warn once it passed; "" clears'),
  spotKeys: z
    .array(z.string().min(1))
    .max(200)
    .describe('Spots it serves directly, in order, each once, at most 200; archived spots allowed'),
});

export type PlaceFields = z.infer<typeof placeFieldsSchema>;

export const placeSchema = z.object({
  facilityId: z.string(),
  kind: z.enum(placeKinds),
  type: z.string().nullable(),
  spotKeys: z.array(z.string()),
  name: z.string(),
  operator: z.string().nullable(),
  description: z.string().nullable(),
  costRaw: z.string().nullable(),
  costUnit: z.enum(costUnits).nullable(),
  openRaw: z.string().nullable(),
  website: z.string().nullable(),
  mapsUrl: z.string().nullable(),
  extraProps: z.array(extraPropSchema),
  lat: z.number().nullable(),
  lon: z.number().nullable(),
  osmId: z.string().nullable(),
  googlePlaceId: z.string().nullable(),
  country: z.string().nullable(),
  timeZone: z.string().nullable(),
  links: guideLinksSchema,
  bookingRequired: z.boolean(),
  bookingUrl: z.string().nullable(),
  extraKinds: z.array(z.enum(placeKinds)),
  insideId: z.string().nullable(),
  needsParentTicket: z.boolean(),
  conditions: placeConditionsSchema.nullable(),
  parking: parkingInfoSchema.nullable(),
  transport: transportInfoSchema.nullable(),
  activity: activityInfoSchema.nullable(),
  gatewayTown: z.string().nullable(),
  status: statusNoticeSchema.nullable(),
  fees: feesSchema,
  schedule: scheduleSchema.nullable(),
  sources: sourcesSchema,
  reviewNotes: z.string().nullable(),
  factsCheckedOn: z.string().nullable(),
  reviewBy: z.string().nullable(),
  createdAt: z.number(),
  updatedAt: z.number(),
});

export type Place = z.infer<typeof placeSchema>;

/** A place in list_facilities' compact view: what picks it out, without its details. */
export const compactPlaceSchema = placeSchema.pick({
  facilityId: true,
  kind: true,
  type: true,
  name: true,
  lat: true,
  lon: true,
  insideId: true,
});

export type CompactPlace = z.infer<typeof compactPlaceSchema>;
