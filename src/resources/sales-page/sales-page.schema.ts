import { z } from 'zod';
import { idSchema } from '../../shared/id-fields.ts';
import { requiredText, text } from '../../shared/text.ts';

/** Bounds of the sales page (docs/decisions/sales-page.md, "Sales page"). */
export const SECTIONS_MAX = 12;
export const SECTION_PARAGRAPHS = 20;
export const PARAGRAPH_MAX = 3000;
export const HIGHLIGHTS_MAX = 10;
export const INCLUDED_MAX = 20;
export const SAMPLE_SPOTS_MAX = 12;
export const GALLERY_MAX = 24;
export const FAQ_MAX = 20;

const photoIdSchema = idSchema('A photo of this guide (mediaId from list_media); its credit shows as "Photo: <name>"');

const sectionSchema = z.strictObject({
  heading: requiredText(120),
  paragraphs: z
    .array(text(PARAGRAPH_MAX))
    .max(SECTION_PARAGRAPHS)
    .describe('Up to 20 of 3,000 characters; empty ones are dropped; lines starting "- " are bullets'),
});

const galleryPhotoSchema = z.strictObject({
  mediaId: photoIdSchema,
  caption: text(300).optional(),
});

const faqSchema = z.strictObject({
  question: requiredText(200),
  answer: requiredText(2000),
});

const itemsSchema = (max: number, what: string) =>
  z.array(requiredText(160)).max(max).describe(`${what}: up to ${max} lines of 160 characters`);

/**
 * What a buyer reads before paying, as the creator writes it. Every field is optional on a save,
 * which replaces the draft whole: a field left out is cleared.
 */
export const salesPageFields = {
  heroMediaId: photoIdSchema.nullable().optional().describe('The large photo on top; its credit shows under it'),
  headline: text(120)
    .nullable()
    .optional()
    .describe('The title on top of the page; "", null or absent: the guide name'),
  promise: text(300).nullable().optional().describe('One or two sentences under the headline: what the buyer gets'),
  sections: z
    .array(sectionSchema)
    .max(SECTIONS_MAX)
    .optional()
    .describe('Prose in reading order: up to 12 sections, each a heading and paragraphs'),
  highlights: itemsSchema(HIGHLIGHTS_MAX, 'Bullet points a buyer scans first').optional(),
  included: itemsSchema(INCLUDED_MAX, 'What the guide contains (e.g. "64 spots with opening hours")').optional(),
  sampleSpotKeys: z
    .array(z.string().min(1).max(63))
    .max(SAMPLE_SPOTS_MAX)
    .optional()
    .describe('Spots shown as a taste (spotKey of this guide), each once, up to 12'),
  gallery: z.array(galleryPhotoSchema).max(GALLERY_MAX).optional().describe('Up to 24 photos of this guide, each once'),
  faq: z.array(faqSchema).max(FAQ_MAX).optional().describe('Up to 20 questions and answers'),
  searchTitle: text(70)
    .nullable()
    .optional()
    .describe('Title search engines and link previews show; absent: the headline'),
  searchDescription: text(160).nullable().optional().describe('Snippet search engines and link previews show'),
};

/** The content as stored and read back: every field present, null or [] when empty. */
export interface SalesPageContent {
  heroMediaId: string | null;
  headline: string | null;
  promise: string | null;
  sections: { heading: string; paragraphs: string[] }[];
  highlights: string[];
  included: string[];
  sampleSpotKeys: string[];
  gallery: { mediaId: string; caption?: string }[];
  faq: { question: string; answer: string }[];
  searchTitle: string | null;
  searchDescription: string | null;
}

/** The content as answered: compact (no limits, no descriptions), as every tool output is. */
export const salesPageContentSchema = z.object({
  heroMediaId: z.string().nullable(),
  headline: z.string().nullable(),
  promise: z.string().nullable(),
  sections: z.array(z.object({ heading: z.string(), paragraphs: z.array(z.string()) })),
  highlights: z.array(z.string()),
  included: z.array(z.string()),
  sampleSpotKeys: z.array(z.string()),
  gallery: z.array(z.object({ mediaId: z.string(), caption: z.string().optional() })),
  faq: z.array(z.object({ question: z.string(), answer: z.string() })),
  searchTitle: z.string().nullable(),
  searchDescription: z.string().nullable(),
});

export const salesPageDraftSchema = salesPageContentSchema.extend({
  updatedAt: z.number().describe('Send it back as expectedUpdatedAt on the next save'),
});

export const salesPageSchema = z.object({
  productId: z.string(),
  live: salesPageContentSchema
    .extend({
      deletedMediaIds: z
        .array(z.string())
        .describe(
          'Photos this live page shows that were deleted since: buyers see them until the next publish, which drops them',
        ),
    })
    .nullable()
    .describe('What buyers see now (the current release); null before a publish'),
  draft: salesPageDraftSchema.nullable().describe('The working draft; null before the first save'),
});

export type SalesPageDraft = SalesPageContent & { updatedAt: number };
