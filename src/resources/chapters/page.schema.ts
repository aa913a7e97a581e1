import { z } from 'zod';
import { idSchema } from '../../shared/id-fields.ts';
import { requiredText, text } from '../../shared/text.ts';
import { PARAGRAPH_MAX, spotKeyRefSchema, storageIdSchema } from './chapter.schema.ts';

export const PAGES_MAX = 50;
export const BLOCKS_PER_PAGE = 40;
export const MAP_SPOTS = 200;
export const FACT_ROWS = 20;

const headingBlock = z.strictObject({
  kind: z.literal('heading'),
  text: requiredText(160),
  level: z
    .union([z.literal(2), z.literal(3)])
    .optional()
    .describe('2 (default) or 3 for a sub-heading'),
});

const paragraphBlock = z.strictObject({
  kind: z.literal('paragraph'),
  text: requiredText(PARAGRAPH_MAX).describe('At most 10,000 characters; lines starting "- " render as bullets'),
});

const spotBlock = z.strictObject({
  kind: z.literal('spot'),
  spotKey: spotKeyRefSchema,
  note: text(300).optional().describe('A line under the card'),
});

const photoBlock = z.strictObject({
  kind: z.literal('photo'),
  mediaId: idSchema('A photo of this guide (list_media); shows its own credit').optional(),
  storageId: storageIdSchema.optional(),
  credit: text(80).optional().describe('With storageId: the photographer, shown as "Photo: <name>"; never invent one'),
  caption: text(300).optional(),
});

const mapBlock = z.strictObject({
  kind: z.literal('map'),
  title: text(120).optional(),
  spotKeys: z.array(spotKeyRefSchema).min(1).max(MAP_SPOTS).describe('Spots on the map, each once, at most 200'),
});

const calloutBlock = z.strictObject({
  kind: z.literal('callout'),
  tone: z.enum(['tip', 'warning']),
  title: text(120).optional(),
  text: requiredText(2000),
});

const factsBlock = z.strictObject({
  kind: z.literal('facts'),
  title: text(120).optional(),
  rows: z
    .array(z.strictObject({ label: requiredText(60), value: requiredText(300) }))
    .min(1)
    .max(FACT_ROWS)
    .describe('At most 20 label/value rows'),
});

export const pageBlockSchema = z.discriminatedUnion('kind', [
  headingBlock,
  paragraphBlock,
  spotBlock,
  photoBlock,
  mapBlock,
  calloutBlock,
  factsBlock,
]);

export const pageSchema = z.strictObject({
  title: text(120).optional().describe("The page's name in the reader's contents"),
  blocks: z.array(pageBlockSchema).min(1).max(BLOCKS_PER_PAGE).describe('1 to 40 blocks in reading order'),
});

export const pagesSchema = z.array(pageSchema).max(PAGES_MAX).describe('At most 50 pages in reading order; [] clears');

export type Page = z.infer<typeof pageSchema>;
export type PageBlock = z.infer<typeof pageBlockSchema>;
