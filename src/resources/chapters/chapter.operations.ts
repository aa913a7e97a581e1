import { z } from 'zod';
import { type GuideList, guidePage, pageFields } from '../../core/guide-pages.ts';
import { openOwned } from '../../core/guide-records.ts';
import { defineOperation } from '../../core/operation.ts';
import { nameContainsField, pageInputShape, pageOutputShape, viewField } from '../../core/paging.ts';
import { requireFresh } from '../../core/stale-editor.ts';
import { STABLE_SINCE } from '../../core/versions.ts';
import { productIdSchema } from '../../shared/id-fields.ts';
import { chapterAnswer, chapterAnswers, compactChapter } from './chapter.answer.ts';
import { applyChapterFields, emptyChapter } from './chapter.input.ts';
import { chapterRules } from './chapter.rules.ts';
import {
  type Chapter,
  type CompactChapter,
  chapterEdits,
  chapterFieldsSchema,
  chapterSchema,
  collectionIdSchema,
  compactChapterSchema,
  expectedUpdatedAtSchema,
  MEMBERS_SHOWN,
} from './chapter.schema.ts';
import { contentOperations } from './chapter-content.operations.ts';
import { chaptersExamples } from './examples.ts';

const kinds =
  'kind chapter is prose and front matter (body, intro, pages); kind collection (the default) is a plain set of spots.';

export const createChapter = defineOperation({
  name: 'create_chapter',
  title: 'Create a chapter or collection',
  method: 'POST',
  path: '/guides/{productId}/chapters',
  scope: 'write',
  stability: 'stable',
  since: STABLE_SINCE,
  successStatus: 201,
  description: `Adds a chapter or collection at the end of the guide. ${kinds} Add members afterwards with set_chapter_members.`,
  input: chapterFieldsSchema
    .partial()
    .extend({ productId: productIdSchema, name: chapterFieldsSchema.shape.name })
    .strict(),
  output: chapterSchema,
  example: chaptersExamples.create_chapter,
  location: (chapter) => `/guides/${chapter.productId}/chapters`,
  async handler({ productId, ...fields }, ctx) {
    const guide = await ctx.guide(productId);
    const state = await applyChapterFields(emptyChapter(fields.name), fields, chapterRules(ctx, guide.id));
    const { chapters } = ctx.stores;
    return chapterAnswer(ctx, await chapters.require(await chapters.insert(guide.id, state)));
  },
});

/** Chapters a page holds: a chapter with prose and pages can be long, so pages are short. */
const CHAPTER_PAGE = { default: 20, max: 200 };

export const listChapters = defineOperation({
  name: 'list_chapters',
  title: 'List chapters and collections',
  method: 'GET',
  path: '/guides/{productId}/chapters',
  scope: 'read',
  stability: 'stable',
  since: STABLE_SINCE,
  description:
    "Lists the guide's chapters and collections in reading order, each with its members, intro and pages, a page " +
    'at a time (see Paging). view compact holds collectionId, kind, name, slug, order, updatedAt, memberCount.',
  input: z.strictObject({
    productId: productIdSchema,
    nameContains: nameContainsField,
    view: viewField,
    allMembers: z.boolean().optional().describe(`true lists every member, not only the first ${MEMBERS_SHOWN}`),
    ...pageInputShape(CHAPTER_PAGE),
  }),
  output: z.object({
    productId: z.string(),
    count: z.number().describe('Chapters in this answer'),
    chapters: z.array(z.union([chapterSchema, compactChapterSchema])),
    ...pageOutputShape,
  }),
  example: chaptersExamples.list_chapters,
  async handler(input, ctx) {
    const { chapters } = ctx.stores;
    const view = input.view ?? 'full';
    const list: GuideList<Chapter, Chapter | CompactChapter> = {
      scope: `chapters name=${input.nameContains ?? '*'}`,
      variant: `${view} ${input.allMembers === true} ${ctx.urls.publicUrl}`,
      size: CHAPTER_PAGE,
      read: async (guideId, request) =>
        chapterAnswers(ctx, await chapters.page(guideId, input.nameContains, request), input.allMembers === true),
      count: (guideId) => chapters.count(guideId, input.nameContains),
      sortKey: (chapter) => [chapter.order, chapter.createdAt, chapter.collectionId],
      present: (chapter) => (view === 'compact' ? compactChapter(chapter) : chapter),
    };
    return guidePage(ctx.stores, ctx.principal.creatorId, input.productId, list, input, (guideId, page) => ({
      productId: guideId,
      count: page.items.length,
      chapters: page.items,
      ...pageFields(page),
    }));
  },
});

export const updateChapter = defineOperation({
  name: 'update_chapter',
  title: 'Update a chapter or collection',
  method: 'PATCH',
  path: '/chapters/{collectionId}',
  scope: 'write',
  stability: 'stable',
  since: STABLE_SINCE,
  errors: ['stale_editor'],
  description:
    'Changes only the fields sent: "" clears description and slug. ' +
    'Send expectedUpdatedAt from your last read; on stale_editor read again and merge, never overwrite. ' +
    'kind changes only when nothing is lost: clear body, intro and pages before making a chapter a collection.',
  input: chapterFieldsSchema
    .partial()
    .extend({ collectionId: collectionIdSchema, expectedUpdatedAt: expectedUpdatedAtSchema.optional() })
    .strict(),
  output: chapterSchema,
  example: chaptersExamples.update_chapter,
  async handler({ collectionId, expectedUpdatedAt, ...fields }, ctx) {
    const chapter = await openOwned(ctx, ctx.stores.chapters, collectionId);
    requireFresh(chapterEdits, chapter.updatedAt, expectedUpdatedAt);
    const { chapters } = ctx.stores;
    const hasCards = fields.kind === 'chapter' && (await chapters.hasCards(chapter.id));
    const state = await applyChapterFields(chapter, fields, chapterRules(ctx, chapter.guideId), {
      id: chapter.id,
      hasCards,
    });
    await chapters.write(chapter.id, state);
    return chapterAnswer(ctx, await chapters.require(chapter.id));
  },
});

export const reorderChapter = defineOperation({
  name: 'reorder_chapter',
  title: 'Move a chapter',
  method: 'PUT',
  path: '/chapters/{collectionId}/position',
  scope: 'write',
  stability: 'stable',
  since: STABLE_SINCE,
  description:
    'Moves a chapter or collection between two others: previousId should precede it, nextId follow it (give either, ' +
    'or both when they are neighbours). With neither it moves to the end. Other chapters keep their order.',
  input: z.strictObject({
    collectionId: collectionIdSchema,
    previousId: collectionIdSchema.optional().describe('The chapter that should precede it'),
    nextId: collectionIdSchema.optional().describe('The chapter that should follow it'),
  }),
  output: z.object({ ok: z.literal(true), collectionId: z.string(), order: z.number() }),
  example: chaptersExamples.reorder_chapter,
  async handler({ collectionId, previousId, nextId }, ctx) {
    const chapter = await openOwned(ctx, ctx.stores.chapters, collectionId);
    const order = await ctx.stores.chapters.order.move(chapter.guideId, {
      id: chapter.id,
      previousId,
      nextId,
      what: 'chapter',
    });
    return { ok: true as const, collectionId: chapter.id, order };
  },
});

export const deleteChapter = defineOperation({
  name: 'delete_chapter',
  title: 'Delete a chapter or collection',
  method: 'DELETE',
  path: '/chapters/{collectionId}',
  scope: 'write',
  stability: 'stable',
  since: STABLE_SINCE,
  description:
    'Deletes a chapter or collection for good; confirm with the creator first. Its member links go, and so do its ' +
    'cards in collections and its items in intro sections. Spots stay.',
  input: z.strictObject({ collectionId: collectionIdSchema }),
  output: z.object({ ok: z.literal(true), collectionId: z.string(), deleted: z.literal(true) }),
  example: chaptersExamples.delete_chapter,
  async handler(input, ctx) {
    const chapter = await openOwned(ctx, ctx.stores.chapters, input.collectionId);
    await ctx.stores.chapters.delete(chapter.guideId, chapter.id);
    return { ok: true as const, collectionId: chapter.id, deleted: true as const };
  },
});

export const chapterOperations = [
  listChapters,
  createChapter,
  updateChapter,
  reorderChapter,
  deleteChapter,
  ...contentOperations,
];
