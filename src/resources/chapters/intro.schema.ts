import { z } from 'zod';
import { requiredText, text } from '../../shared/text.ts';
import { collectionIdSchema, paragraphsSchema, storageIdSchema } from './chapter.schema.ts';

export const INTRO_SECTIONS = 20;
export const INTRO_ITEMS = 60;
export const INTRO_PARAGRAPHS = 30;
export const INTRO_CELLS = 8;

export const introSectionKinds = ['prose', 'chapters', 'collections'] as const;

const photoCreditSchema = text(80).describe('Photographer, shown as "Photo: <name>"; kept only with a photo');

export const introItemSchema = z.strictObject({
  collectionId: collectionIdSchema.describe('A chapter of this guide, once per section'),
  title: text(120).optional(),
  line: text(200).optional().describe('chapters sections only'),
  color: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour written #rrggbb')
    .optional()
    .describe('#rrggbb, chapters sections only; stored lower case'),
  photoStorageId: storageIdSchema.optional().describe('collections sections only'),
  photoCredit: photoCreditSchema.optional(),
});

export const introCellSchema = z.strictObject({
  title: requiredText(120),
  body: text(600).optional(),
});

export const introSectionSchema = z.strictObject({
  kind: z
    .enum(introSectionKinds)
    .optional()
    .describe('prose (default); chapters or collections: rows and cards come from the guide, items only restyle them'),
  kicker: text(120).optional(),
  title: requiredText(160),
  deck: text(500).optional(),
  paragraphs: paragraphsSchema(INTRO_PARAGRAPHS)
    .optional()
    .describe('prose only; at most 30 of 10,000 characters; "- " lines are bullets'),
  cells: z
    .array(introCellSchema)
    .max(INTRO_CELLS)
    .optional()
    .describe('prose only, at most 8; a section with cells has no paragraphs and no photo'),
  photoStorageId: storageIdSchema.optional().describe('prose only'),
  photoCredit: photoCreditSchema.optional(),
  items: z
    .array(introItemSchema)
    .max(INTRO_ITEMS)
    .optional()
    .describe('chapters and collections sections only, at most 60'),
});

export const chapterIntroSchema = z.strictObject({
  coverKicker: text(120).optional(),
  coverTitle: text(160).optional().describe("Absent means the guide's name"),
  coverAuthor: text(120).optional().describe("Absent means the creator's display name"),
  coverAuthorPhotoStorageId: storageIdSchema.optional(),
  sections: z.array(introSectionSchema).max(INTRO_SECTIONS).describe('At most 20, in reading order'),
});

export type ChapterIntro = z.infer<typeof chapterIntroSchema>;
export type IntroSection = z.infer<typeof introSectionSchema>;
export type IntroItem = z.infer<typeof introItemSchema>;
