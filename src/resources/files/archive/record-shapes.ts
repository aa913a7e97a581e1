import { z } from 'zod';
import type { ApiError } from '../../../core/errors.ts';
import { latitudeSchema, longitudeSchema } from '../../../shared/geo.ts';
import { nameText, slugSchema } from '../../../shared/text.ts';
import { areaSchema } from '../../areas/index.ts';
import { placeSchema } from '../../facilities/index.ts';
import { propertySchema } from '../../properties/index.ts';
import { spotKeySchema, spotSchema } from '../../spots/index.ts';
import type { ArchiveRecords } from './archive-format.ts';

/**
 * The records an archive holds in numbers (spots, places, areas, properties), held to their resources' own
 * record schemas, with the ranges and key format the write operations check: a hand-edited archive
 * cannot store a spot at latitude 500. What these schemas do not reach yet: docs/decisions/files.md.
 */
const shapes = {
  // What the import copies of the guide record itself (see guide-import.ts); its sale state is not read.
  guide: z.object({
    productId: z.string(),
    name: nameText(120),
    slug: slugSchema,
    headline: z.string().nullable(),
    purchaseButtonText: z.string().nullable(),
    country: z.string().nullable(),
    reviewsShown: z.boolean(),
    storeTags: z.array(z.string()),
  }),
  spots: spotSchema.extend({
    spotKey: spotKeySchema,
    name: z.string().min(1).max(120),
    lat: latitudeSchema.nullable(),
    lon: longitudeSchema.nullable(),
  }),
  places: placeSchema.extend({
    name: z.string().min(1).max(120),
    lat: latitudeSchema.nullable(),
    lon: longitudeSchema.nullable(),
  }),
  properties: propertySchema,
} as const;

type Refusal = (part: string, sentence: string) => ApiError;

function checkOne(where: string, schema: z.ZodType, record: unknown, refusal: Refusal): void {
  const parsed = schema.safeParse(record);
  if (parsed.success) return;
  const issue = parsed.error.issues[0];
  const path = [where, ...(issue?.path ?? [])].join('.');
  throw refusal(`records.json ${path}`, `${issue?.message ?? 'is not a record of its kind'}.`);
}

function check(part: string, schema: z.ZodType, records: readonly unknown[], refusal: Refusal): void {
  for (const [i, record] of records.entries()) checkOne(`${part}[${i}]`, schema, record, refusal);
}

export function checkRecordShapes(records: ArchiveRecords, refusal: Refusal): void {
  checkOne('guide', shapes.guide, records.guide, refusal);
  check('guide.areas', areaSchema, records.guide.areas, refusal);
  check('spots', shapes.spots, records.spots, refusal);
  check('places', shapes.places, records.places, refusal);
  check('properties', shapes.properties, records.properties, refusal);
}
