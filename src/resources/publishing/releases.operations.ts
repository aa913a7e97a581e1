import { z } from 'zod';
import { notFound } from '../../core/errors.ts';
import { type GuideList, guidePage, pageFields } from '../../core/guide-pages.ts';
import { defineOperation, type OperationContext } from '../../core/operation.ts';
import { pageInputShape, pageOutputShape } from '../../core/paging.ts';
import { pageOfSortedList } from '../../core/paging-sorted.ts';
import { productIdSchema } from '../../shared/id-fields.ts';
import { authorOf } from '../history/index.ts';
import { publishingExamples } from './examples.ts';
import type { FoundRelease, ListedRelease, ReleasesStore } from './release.store.ts';
import { imageOf } from './release-image.ts';
import { restoreRelease } from './restore.ts';
import { snapshotDifferences } from './snapshot-differences.ts';
import { compareWithImage, countByKind, type RecordDifference, recordDifferences } from './working-image.ts';

/** The first revision of the service that lists and restores releases (issue 29). */
const SINCE_RELEASES = '2026-11-27';

/** Releases a page holds: each is a few hundred bytes. */
const RELEASES_PAGE = { default: 20, max: 100 };

/** Records of a difference a page holds: about 100 bytes each, so a default answer stays far under 64 KB. */
const DIFFERENCES_PAGE = { default: 100, max: 500 };

/** A release by its number (list_releases): the number buyers' releases go by. */
const releaseNumberSchema = z.number().int().min(1);

const byKindSchema = z
  .array(z.object({ kind: z.string(), added: z.number(), changed: z.number(), removed: z.number() }))
  .describe('By kind: added, changed or removed since the release');

const releaseSummary = {
  release: z.number(),
  publishedAt: z.number().describe('Unix ms'),
  by: z.object({ kind: z.enum(['key', 'assistant', 'studio']), name: z.string() }),
  counts: z.record(z.string(), z.number()).describe('What buyers could open, by kind'),
};

function summaryOf(release: ListedRelease) {
  return {
    release: release.number,
    publishedAt: release.publishedAt,
    by: authorOf(release.keyId, release.keyName, release.keyHint, release.clientName),
    counts: release.counts,
  };
}

function releasesList(store: ReleasesStore): GuideList<ListedRelease, ReturnType<typeof summaryOf>> {
  return {
    scope: 'releases',
    variant: '',
    size: RELEASES_PAGE,
    read: (guideId, request) => store.page(guideId, request),
    count: (guideId) => store.count(guideId),
    sortKey: (release) => [release.number],
    present: summaryOf,
  };
}

export const listReleases = defineOperation({
  name: 'list_releases',
  title: 'Releases',
  method: 'GET',
  path: '/guides/{productId}/releases',
  scope: 'read',
  stability: 'beta',
  since: SINCE_RELEASES,
  example: publishingExamples.list_releases,
  description: 'Releases, newest first, with what each held.',
  input: z.strictObject({ productId: productIdSchema, ...pageInputShape(RELEASES_PAGE) }),
  output: z.object({ productId: z.string(), releases: z.array(z.object(releaseSummary)), ...pageOutputShape }),
  handler({ productId, cursor, limit }, ctx) {
    return guidePage(
      ctx.stores,
      ctx.principal.creatorId,
      productId,
      releasesList(ctx.stores.releases),
      { cursor, limit },
      (guideId, page) => ({ productId: guideId, releases: page.items, ...pageFields(page) }),
    );
  },
});

/** The guide's release of that number; another creator's guide or a number it never had: 404 alike. */
async function requireRelease(ctx: OperationContext, productId: string, number: number) {
  const guide = await ctx.guide(productId);
  const release = await ctx.stores.releases.byNumber(guide.id, number);
  if (!release) throw notFound('release', String(number));
  return { guide, release };
}

/** How the working copy differs from a release: exactly from its image, else from what buyers saw. */
async function differencesFrom(
  ctx: OperationContext,
  guide: { id: string; creatorId: string },
  release: FoundRelease,
): Promise<RecordDifference[]> {
  const image = await imageOf(ctx.stores, release.id);
  if (image === undefined) return snapshotDifferences(ctx.stores, guide, release.id);
  const { workingCopy } = ctx.stores;
  const tables = await workingCopy.tables();
  const diffs = await compareWithImage(workingCopy, guide.id, tables, image);
  return recordDifferences(diffs, ctx.stores.changes.tables, { tables, image });
}

export const getRelease = defineOperation({
  name: 'get_release',
  title: 'Compare a release',
  method: 'GET',
  path: '/guides/{productId}/releases/{release}',
  scope: 'read',
  stability: 'beta',
  since: SINCE_RELEASES,
  example: publishingExamples.get_release,
  description: 'How the working copy differs from a release, by record.',
  input: z.strictObject({
    productId: productIdSchema,
    release: releaseNumberSchema,
    ...pageInputShape(DIFFERENCES_PAGE),
  }),
  output: z.object({
    productId: z.string(),
    ...releaseSummary,
    restorable: z.boolean().describe('false: published before releases kept the whole working copy'),
    changes: byKindSchema,
    records: z
      .array(
        z.object({
          kind: z.string(),
          id: z.string(),
          name: z.string().nullable(),
          change: z.enum(['added', 'changed', 'removed']),
        }),
      )
      .describe('This page of the records that differ'),
    ...pageOutputShape,
  }),
  async handler(input, ctx) {
    const { guide, release } = await requireRelease(ctx, input.productId, input.release);
    const differences = await differencesFrom(ctx, guide, release);
    const page = pageOfSortedList(differences, input, DIFFERENCES_PAGE, (r) => [r.kind, r.id]);
    return {
      productId: guide.id,
      ...summaryOf(release),
      restorable: release.hasImage,
      changes: countByKind(differences),
      records: page.items,
      ...pageFields(page),
    };
  },
});

export const restoreReleaseOperation = defineOperation({
  name: 'restore_release',
  title: 'Restore a release',
  method: 'POST',
  path: '/guides/{productId}/releases/{release}/restore',
  scope: 'write',
  stability: 'beta',
  since: SINCE_RELEASES,
  example: publishingExamples.restore_release,
  errors: ['guide_sold'],
  description: 'Makes the working copy what a release held, as one change for undo_changes.',
  input: z.strictObject({ productId: productIdSchema, release: releaseNumberSchema }),
  output: z.object({
    productId: z.string(),
    release: z.number(),
    changeId: z.string().optional().describe('For undo_changes; absent when nothing differed'),
    changes: byKindSchema.describe('What differed from the release before, by kind: all of it is undone'),
  }),
  async handler(input, ctx) {
    const { guide, release } = await requireRelease(ctx, input.productId, input.release);
    const differences = await restoreRelease(ctx, guide.id, release);
    return {
      productId: guide.id,
      release: release.number,
      ...(differences.length > 0 && { changeId: await ctx.stores.changes.current() }),
      changes: countByKind(differences),
    };
  },
});

export const releasesOperations = [listReleases, getRelease, restoreReleaseOperation];
