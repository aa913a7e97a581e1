import { z } from 'zod';
import { pageInputShape, pageOutputShape } from '../../core/paging.ts';
import { productIdSchema } from '../../shared/id-fields.ts';
import { IMPORT_FEATURES_MAX, importFormats } from './imported-file.ts';

/** Items of an import's answer a page holds: about 150 bytes each. */
export const IMPORT_PAGE = { default: 50, max: 500 };

export const importInputSchema = z.strictObject({
  productId: productIdSchema,
  // Notes kept short: every connection downloads them; the description says the rest.
  format: z.enum(importFormats),
  content: z.string().min(1).optional(),
  uploadId: z.string().min(1).max(100).optional(),
  dryRun: z.boolean().optional(),
  keyFrom: z.enum(['name', 'id-property']).optional(),
  linesAs: z.enum(['hike', 'route']).optional(),
  areaId: z.string().min(1).optional(),
  collectionId: z.string().min(1).max(100).optional(),
  collectionsFrom: z.enum(['folders']).optional(),
  ...pageInputShape(IMPORT_PAGE),
});

export type ImportInput = z.infer<typeof importInputSchema>;

const action = z.enum(['create', 'update', 'unchanged', 'skip']);

export const importItemSchema = z.object({
  where: z.string().describe('Where in the file: "feature 3", "row 7", "Placemark 12"'),
  kind: z.enum(['spot', 'hike', 'route', 'feature']),
  action,
  name: z.string().optional(),
  spotKey: z.string().optional(),
  id: z.string().optional().describe('spotId, hikeId or routeId, once the record exists'),
  reason: z.string().optional().describe('Why it is skipped'),
});

export const importOutputSchema = z.object({
  productId: z.string(),
  dryRun: z.boolean().describe('true: nothing was written'),
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int().describe('Already as the file says: nothing written'),
  skipped: z.number().int(),
  addedToCollection: z.number().int().optional().describe('Spots added to collectionId and folder collections'),
  collectionsCreated: z.number().int().optional().describe('Collections made for folders (collectionsFrom)'),
  items: z
    .array(importItemSchema)
    .describe(`Skipped first, then created, updated, unchanged; at most ${IMPORT_FEATURES_MAX} features a file`),
  ...pageOutputShape,
});
