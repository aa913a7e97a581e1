import { z } from 'zod';
import type { EditedRecord } from '../../core/stale-editor.ts';
import { creditFields } from '../../shared/credit.ts';
import { idSchema } from '../../shared/id-fields.ts';
import { requiredText, slugSchema, text } from '../../shared/text.ts';

export const chapterKinds = ['chapter', 'collection'] as const;
export type ChapterKind = (typeof chapterKinds)[number];

export const BODY_PARAGRAPHS = 100;
export const PARAGRAPH_MAX = 10_000;
/** Members of one chapter: every spot of a 2,000-spot guide fits in one collection, with room to spare. */
export const MEMBERS_MAX = 2500;
/** Members a chapter's answer lists unless asked for all: a long list is read with list_spots collectionId. */
export const MEMBERS_SHOWN = 500;

export const collectionIdSchema = idSchema('From list_chapters');

/** The spot key as list_spots shows it; an unknown key is refused by the writer. */
export const spotKeyRefSchema = z.string().min(1).max(63).describe('spotKey of a spot of this guide');

export const storageIdSchema = z
  .string()
  .min(1)
  .max(128)
  .describe('From upload_media with target=blob (your own upload)');

export const paragraphsSchema = (max: number) =>
  z
    .array(text(PARAGRAPH_MAX))
    .max(max)
    .describe(
      `At most ${max} paragraphs of 10,000 characters; empty ones are dropped; lines starting "- " are bullets`,
    );

/** Fields the creator writes on create_chapter and update_chapter. */
export const chapterFieldsSchema = z.object({
  name: requiredText(120).describe('Title, 1 to 120 characters'),
  kind: z
    .enum(chapterKinds)
    .describe('chapter: prose and front matter (body, intro, pages); collection: a plain set of spots'),
  description: text(300).describe('One-line summary, at most 300; "" clears'),
  slug: z
    .union([z.literal(''), slugSchema])
    .describe(
      'Unique in the guide: 1 to 63 lowercase letters, digits, hyphens, starting with a letter or digit; "" clears',
    ),
  body: paragraphsSchema(BODY_PARAGRAPHS).describe(
    'Prose paragraphs, chapters only; full replacement, [] clears; at most 100 of 10,000 characters; empty ones dropped',
  ),
  coverStorageId: storageIdSchema.nullable().describe('Cover image; null clears'),
  coverCredit: creditFields.credit.describe(
    'Who took the cover, shown as "Photo: <name>" with it; only a name the creator gave; "" clears; a new cover starts without one',
  ),
  coverCreditUrl: creditFields.creditUrl.describe("The cover photographer's page, linked from the credit; null clears"),
  coverLicence: creditFields.licence.describe("The cover's licence; null clears"),
});

export const expectedUpdatedAtSchema = z
  .number()
  .int()
  .min(0)
  .describe(
    "The chapter's updatedAt from your last read or write; if it changed since, 409 stale_editor and nothing is written",
  );

/** What a stale_editor answer to a chapter editor says (see expectedUpdatedAtSchema). */
export const chapterEdits: EditedRecord = { name: 'chapter', readWith: 'list_chapters' };

export const memberSchema = z.object({
  spotKey: z.string().nullable(),
  memberCollectionId: z.string().nullable().describe('A chapter shown as a card inside this collection'),
  order: z.number(),
});

/** The record as read back. Intro and pages are described where they are set, to keep tool lists short. */
export const chapterSchema = z.object({
  collectionId: z.string(),
  productId: z.string(),
  name: z.string(),
  slug: z.string().nullable(),
  description: z.string().nullable(),
  kind: z.enum(chapterKinds),
  body: z.array(z.string()),
  intro: z.record(z.string(), z.unknown()).nullable().describe('ChapterIntro as set_chapter_intro stores it'),
  pages: z.array(z.record(z.string(), z.unknown())).describe('Long-form pages as set_chapter_pages stores them'),
  order: z.number(),
  coverUrl: z.string().nullable(),
  coverStorageId: z.string().nullable(),
  coverCredit: z.string().nullable().describe('Shown as "Photo: <name>" with the cover'),
  coverCreditUrl: z.string().nullable(),
  coverLicence: z.string().nullable(),
  members: z.array(memberSchema).describe(`In order; the first ${MEMBERS_SHOWN} unless asked allMembers`),
  memberCount: z.number().describe('How many members in all'),
  createdAt: z.number(),
  updatedAt: z.number().describe('Send it back as expectedUpdatedAt on your next edit'),
});

/** A chapter in list_chapters' compact view: what picks it out, and its members counted. */
export const compactChapterSchema = chapterSchema.pick({
  collectionId: true,
  kind: true,
  name: true,
  slug: true,
  order: true,
  updatedAt: true,
  memberCount: true,
});

export type CompactChapter = z.infer<typeof compactChapterSchema>;

export type Member = z.infer<typeof memberSchema>;
export type Chapter = z.infer<typeof chapterSchema>;
/** The fields a create or update sent, as the schema hands them over. */
export type ChapterFields = Partial<z.output<typeof chapterFieldsSchema>>;
