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
    label: text(80).min(1),
    lat: latitudeSchema,
    lon: longitudeSchema,
    months: monthsSchema.optional(),
    note: text(300).optional(),
  })
  .meta({ id: 'SpotPin', description: 'An extra point of a spot: an entrance, a viewpoint, a trailhead' });

/** A named map link of a spot: any https address, or a geo: URI. */
export const mapLinkSchema = z
  .strictObject({
    label: text(40).min(1),
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
  .meta({ id: 'MapLink', description: 'A labelled link to the place: any https address or a geo: URI' });

export type SpotPin = z.infer<typeof spotPinSchema>;
export type MapLink = z.infer<typeof mapLinkSchema>;
