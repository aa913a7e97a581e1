import { z } from 'zod';
import type { ApiError } from '../../../core/errors.ts';
import { areaSchema } from '../../areas/index.ts';
import { placeSchema } from '../../facilities/index.ts';
import { propertySchema } from '../../properties/index.ts';
import { spotSchema } from '../../spots/index.ts';
import type { ArchiveRecords } from './archive-format.ts';
import { refusalOf } from './record-fields.ts';

/**
 * The records an archive holds in numbers (spots, places, areas, properties) held to their
 * resources' own record schemas: each field of the kind its store takes. Their limits (lengths,
 * ranges, key formats) are the write operations' own, checked by record-fields.ts.
 */
const shapes = {
  // What the import copies of the guide record itself (see guide-import.ts); its sale state is not read.
  guide: z.object({
    productId: z.string(),
    name: z.string(),
    slug: z.string(),
    headline: z.string().nullable(),
    purchaseButtonText: z.string().nullable(),
    country: z.string().nullable(),
    reviewsShown: z.boolean(),
    storeTags: z.array(z.string()),
  }),
  spots: spotSchema,
  places: placeSchema,
  properties: propertySchema,
} as const;

type Refusal = (part: string, sentence: string) => ApiError;

function checkOne(where: string, schema: z.ZodType, record: unknown, refusal: Refusal): void {
  const parsed = schema.safeParse(record, { reportInput: true });
  if (!parsed.success) throw refusalOf(where, parsed.error.issues, refusal);
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
