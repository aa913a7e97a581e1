import { z } from 'zod';
import { refuse } from '../../core/errors.ts';
import { openOwned } from '../../core/guide-records.ts';
import { defineOperation } from '../../core/operation.ts';
import { requireFresh } from '../../core/stale-editor.ts';
import { STABLE_SINCE } from '../../core/versions.ts';
import { answerField } from '../../core/write-answer.ts';
import { chapterWriteAnswer } from './chapter.answer.ts';
import { chapterRules } from './chapter.rules.ts';
import {
  chapterEdits,
  chapterSchema,
  collectionIdSchema,
  compactChapterSchema,
  expectedUpdatedAtSchema,
  MEMBERS_MAX,
  spotKeyRefSchema,
} from './chapter.schema.ts';
import { chaptersExamples } from './examples.ts';
import { normaliseIntro } from './intro.input.ts';
import { chapterIntroSchema } from './intro.schema.ts';
import { normaliseMembers } from './member.input.ts';
import { normalisePages } from './page.input.ts';
import { pagesSchema } from './page.schema.ts';

const memberInputSchema = z.strictObject({
  spotKey: spotKeyRefSchema.optional().describe('A spot of this guide (archived allowed)'),
  memberCollectionId: collectionIdSchema
    .optional()
    .describe('Another chapter of this guide, shown as a card; collections only'),
  order: z.number().optional().describe('Ascending; give it on every member or on none (then the list order counts)'),
});

/**
 * What the three writes answer: the fields of list_chapters' compact view, and the rest of the record
 * with answer full. One object whose other fields are optional, so both answers are one shape.
 */
const chapterWriteSchema = chapterSchema.partial().extend(compactChapterSchema.shape);

export const setChapterMembers = defineOperation({
  name: 'set_chapter_members',
  title: 'Set the members of a chapter or collection',
  method: 'PUT',
  path: '/chapters/{collectionId}/members',
  scope: 'write',
  stability: 'stable',
  since: STABLE_SINCE,
  description:
    `Replaces the members whole, in order: each is a spotKey or a memberCollectionId, each once, at most ${MEMBERS_MAX}. ` +
    'A chapter cannot contain itself. [] removes every member.',
  input: z.strictObject({
    collectionId: collectionIdSchema,
    members: z.array(memberInputSchema).max(MEMBERS_MAX).describe(`At most ${MEMBERS_MAX}, full replacement`),
    answer: answerField,
  }),
  output: chapterWriteSchema,
  example: chaptersExamples.set_chapter_members,
  async handler({ collectionId, members, answer }, ctx) {
    const chapter = await openOwned(ctx, ctx.stores.chapters, collectionId);
    const refs = await normaliseMembers(chapter, members, chapterRules(ctx, chapter.guideId));
    await ctx.stores.chapters.setMembers(chapter.id, refs);
    return chapterWriteAnswer(ctx, await ctx.stores.chapters.require(chapter.id), answer);
  },
});

export const setChapterIntro = defineOperation({
  name: 'set_chapter_intro',
  title: "Set a chapter's intro",
  method: 'PUT',
  path: '/chapters/{collectionId}/intro',
  scope: 'write',
  stability: 'stable',
  since: STABLE_SINCE,
  description:
    // What chapters and collections sections show is their kind's note.
    "Replaces a chapter's front matter whole: cover fields and up to 20 sections in reading order. prose sections " +
    'carry paragraphs, or cells (then no paragraphs, no photo), and a photo. Chapters only. intro null, or one ' +
    'with no cover field and no section, removes it. A photoCredit without a photo is dropped with a warning.',
  input: z.strictObject({
    collectionId: collectionIdSchema,
    intro: chapterIntroSchema.nullable().describe('ChapterIntro, or null to remove it'),
    answer: answerField,
  }),
  output: chapterWriteSchema,
  example: chaptersExamples.set_chapter_intro,
  async handler({ collectionId, intro, answer }, ctx) {
    const chapter = await openOwned(ctx, ctx.stores.chapters, collectionId);
    const written = await normaliseIntro(intro, chapterRules(ctx, chapter.guideId));
    if (written !== null && chapter.kind !== 'chapter') {
      throw refuse(
        'intro',
        'only chapters carry an intro; make this collection a chapter first (update_chapter kind "chapter").',
      );
    }
    await ctx.stores.chapters.write(chapter.id, { ...chapter, intro: written });
    return chapterWriteAnswer(ctx, await ctx.stores.chapters.require(chapter.id), answer);
  },
});

export const setChapterPages = defineOperation({
  name: 'set_chapter_pages',
  title: "Set a chapter's pages",
  method: 'PUT',
  path: '/chapters/{collectionId}/pages',
  scope: 'write',
  stability: 'stable',
  since: STABLE_SINCE,
  errors: ['stale_editor'],
  description:
    'Replaces the long-form pages of a chapter whole: pages a buyer turns through, each an ordered list of blocks ' +
    '(heading, paragraph, spot card, photo, map of spots, tip or warning callout, table of facts). Chapters only; ' +
    '[] clears. Send expectedUpdatedAt from your last read; on stale_editor read again and merge, never overwrite.',
  input: z.strictObject({
    collectionId: collectionIdSchema,
    pages: pagesSchema,
    expectedUpdatedAt: expectedUpdatedAtSchema.optional(),
    answer: answerField,
  }),
  output: chapterWriteSchema,
  example: chaptersExamples.set_chapter_pages,
  async handler({ collectionId, pages, expectedUpdatedAt, answer }, ctx) {
    const chapter = await openOwned(ctx, ctx.stores.chapters, collectionId);
    requireFresh(chapterEdits, chapter.updatedAt, expectedUpdatedAt);
    if (pages.length > 0 && chapter.kind !== 'chapter') {
      throw refuse(
        'pages',
        'only chapters have pages; make this collection a chapter first (update_chapter kind "chapter").',
      );
    }
    const written = await normalisePages(pages, chapterRules(ctx, chapter.guideId));
    await ctx.stores.chapters.write(chapter.id, { ...chapter, pages: written });
    return chapterWriteAnswer(ctx, await ctx.stores.chapters.require(chapter.id), answer);
  },
});

export const contentOperations = [setChapterMembers, setChapterIntro, setChapterPages];
