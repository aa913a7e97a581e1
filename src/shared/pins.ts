import { z } from 'zod';
import { monthsSchema } from './dates.ts';
import { latitudeSchema, longitudeSchema } from './geo.ts';
import { isGeoUri } from './map-links.ts';
import { text } from './text.ts';

export const pinKinds = [
  'viewpoint',
  'entrance',
  'gate',
  'trailhead',
  'parking',
  'stop',
  'pier',
  'summit',
  'other',
] as const;

/** An extra point of a spot: the viewpoint, the trailhead, the gate. */
export const spotPinSchema = z
  .strictObject({
    kind: z.enum(pinKinds),
    label: text(80).min(1).describe('At most 80'),
    lat: latitudeSchema,
    lon: longitudeSchema,
    months: monthsSchema.optional(),
    note: text(300).optional(),
  })
  .describe('SpotPin');

/** A named map link of a spot: any https address, or a geo: URI. */
export const mapLinkSchema = z
  .strictObject({
    label: text(40).min(1).describe('At most 40'),
    url: z
      .string()
      .max(2000)
      .refine(
        (s) => {
          if (isGeoUri(s)) return true;
          try {
            return /^https:\/\//i.test(s) && new URL(s).protocol === 'https:';
          } catch {
            return false;
          }
        },
        { message: 'must be an https address or a geo: URI' },
      ),
  })
  .describe('MapLink');

export type SpotPin = z.infer<typeof spotPinSchema>;
export type MapLink = z.infer<typeof mapLinkSchema>;
