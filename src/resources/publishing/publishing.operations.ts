import { z } from 'zod';
import { ApiError } from '../../core/errors.ts';
import { defineOperation } from '../../core/operation.ts';
import { pageInputShape, pageOutputShape } from '../../core/paging.ts';
import { pageOfSortedList } from '../../core/paging-sorted.ts';
import { STABLE_SINCE } from '../../core/versions.ts';
import { productIdSchema } from '../../shared/id-fields.ts';
import { publishingExamples } from './examples.ts';
import { readGuideContents } from './guide-contents.ts';
import { FINDINGS_PAGE, type Gate, publishEntries, publishRelease } from './publish-gates.ts';
import {
  type Finding,
  type FindingCode,
  findingCodes,
  findingKinds,
  findingSortKey,
  readinessOf,
} from './readiness.ts';
import { diffRowHashes, releaseKinds, serializeSnapshot, snapshotRows } from './snapshot.ts';

const findingSchema = z.object({
  code: z.string().describe('Stable; the authoring guide lists every code and what clears it'),
  severity: z.enum(['blocking', 'warning']).describe('blocking stops a publish'),
  message: z.string().describe('What is wrong and what to do about it'),
  where: z.object({
    kind: z.enum(findingKinds),
    id: z.string(),
    name: z.string(),
    field: z.string().describe('Field path in that record'),
  }),
});

const gateSchema = z.object({ code: z.string(), message: z.string() });
const releaseSchema = z.object({ number: z.number(), publishedAt: z.number().describe('Unix ms') });
const changesSchema = z
  .array(
    z.object({
      kind: z.enum(['guide', 'salesPage', ...releaseKinds]),
      added: z.number(),
      changed: z.number(),
      removed: z.number(),
    }),
  )
  .describe('What differs from the current release, by kind; kinds with no change left out');

const countsOf = (findings: readonly Finding[]) => {
  const blockingCount = findings.filter((f) => f.severity === 'blocking').length;
  return { blockingCount, warningCount: findings.length - blockingCount };
};

export const getGuideReadiness = defineOperation({
  name: 'get_guide_readiness',
  title: 'Check readiness',
  method: 'GET',
  path: '/guides/{productId}/readiness',
  scope: 'read',
  stability: 'stable',
  since: STABLE_SINCE,
  example: publishingExamples.get_guide_readiness,
  description:
    'Lists what stands between the working copy and buyers, blocking findings first: blocking ones stop ' +
    'publish_changes, warnings do not. Each finding says where and what to do; doing it clears the finding. ' +
    'Paged: the counts are over the whole guide on every page, so ready and ' +
    'blockingCount tell whether it may publish without reading further; filter by code to work through one kind.',
  input: z.strictObject({
    productId: productIdSchema,
    code: z
      .enum(findingCodes as [FindingCode, ...FindingCode[]])
      .optional()
      .describe('Only findings of this code'),
    ...pageInputShape(FINDINGS_PAGE),
  }),
  output: z.object({
    productId: z.string(),
    today: z.string(),
    ready: z.boolean().describe('No blocking finding in the whole guide'),
    blockingCount: z.number().describe('Blocking findings in the whole guide, whatever the page or filter'),
    warningCount: z.number().describe('Warnings in the whole guide, whatever the page or filter'),
    countsByCode: z
      .record(z.string(), z.number())
      .describe('Findings of each code in the whole guide; codes with none left out'),
    findings: z.array(findingSchema).describe('This page, blocking first'),
    ...pageOutputShape,
  }),
  async handler(input, ctx) {
    const guide = await ctx.guide(input.productId);
    const today = ctx.clock.today();
    const all = readinessOf(await readGuideContents(ctx.stores, guide.id, guide.creatorId), today);
    const countsByCode: Record<string, number> = {};
    for (const f of all) countsByCode[f.code] = (countsByCode[f.code] ?? 0) + 1;
    const matching = input.code === undefined ? all : all.filter((f) => f.code === input.code);
    const page = pageOfSortedList(matching, input, FINDINGS_PAGE, findingSortKey);
    const counts = countsOf(all);
    return {
      productId: guide.id,
      today,
      ready: counts.blockingCount === 0,
      ...counts,
      countsByCode,
      findings: page.items,
      total: page.total,
      ...(page.nextCursor !== undefined && { nextCursor: page.nextCursor }),
    };
  },
});

export const getPublishStatus = defineOperation({
  name: 'get_publish_status',
  title: 'Get publish status',
  method: 'GET',
  path: '/guides/{productId}/publish',
  scope: 'read',
  stability: 'stable',
  since: STABLE_SINCE,
  example: publishingExamples.get_publish_status,
  description:
    'Tells whether the guide is live, its current release, whether the working copy differs from it (changes by kind) ' +
    'and what would block or warn on publish_changes. Call it before publishing and tell the creator what will change. ' +
    'The gates and warnings are paged together, blocking first; blockingCount (every page) is 0 exactly when ' +
    'publish_changes would go through.',
  input: z.strictObject({ productId: productIdSchema, ...pageInputShape(FINDINGS_PAGE) }),
  output: z.object({
    productId: z.string(),
    live: z.boolean().describe('On sale (status published)'),
    currentRelease: releaseSchema.nullable().describe('What buyers see; null before the first publish'),
    differs: z.boolean().describe('The working copy has changes buyers do not see yet'),
    changes: changesSchema,
    blocking: z.array(gateSchema).describe("This page's open gates; blockingCount counts them all"),
    warnings: z.array(gateSchema).describe("This page's warnings; warningCount counts them all"),
    blockingCount: z.number().describe('Open gates in all; 0 when publish_changes would go through'),
    warningCount: z.number().describe('Warnings in all'),
    ...pageOutputShape,
  }),
  async handler(input, ctx) {
    const guide = await ctx.guide(input.productId);
    const contents = await readGuideContents(ctx.stores, guide.id, guide.creatorId);
    const entries = publishEntries(contents, readinessOf(contents, ctx.clock.today()), {
      needsLive: true,
    });
    const page = pageOfSortedList(entries, input, FINDINGS_PAGE, (e) => e.key);
    const gate = ({ code, message }: Gate) => ({ code, message });
    const blockingCount = entries.filter((e) => e.blocking).length;
    const working = serializeSnapshot(snapshotRows(contents));
    const current = await ctx.stores.releases.latestHashes(guide.id);
    const differs = current?.contentHash !== working.hash;
    return {
      productId: guide.id,
      live: contents.guide.status === 'published',
      currentRelease: current ? { number: current.number, publishedAt: current.publishedAt } : null,
      differs,
      changes: differs ? diffRowHashes(current?.rowHashes, working.rowHashes) : [],
      blocking: page.items.filter((e) => e.blocking).map(gate),
      warnings: page.items.filter((e) => !e.blocking).map(gate),
      blockingCount,
      warningCount: entries.length - blockingCount,
      total: page.total,
      ...(page.nextCursor !== undefined && { nextCursor: page.nextCursor }),
    };
  },
});

export const publishChanges = defineOperation({
  name: 'publish_changes',
  title: 'Publish changes',
  method: 'POST',
  path: '/guides/{productId}/publish',
  scope: 'publish',
  stability: 'stable',
  since: STABLE_SINCE,
  errors: ['agreement_outdated', 'not_publishable'],
  example: publishingExamples.publish_changes,
  description:
    'Makes the working copy of a live guide what buyers see, as a new numbered release. Confirm with the creator ' +
    'first: buyers see the changes at once. Needs a key with the publish option. Refused with not_publishable ' +
    '(details.blocking) while the guide is not live or has blocking findings. With nothing changed, no release is made.',
  input: z.strictObject({ productId: productIdSchema }),
  output: z.object({
    productId: z.string(),
    published: z.boolean().describe('false: nothing changed since the current release'),
    release: releaseSchema.describe('The new release, or the current one when nothing changed'),
    changes: changesSchema,
    message: z.string(),
  }),
  async handler(input, ctx) {
    const guide = await ctx.guide(input.productId);
    const creator = await ctx.stores.creators.require(guide.creatorId);
    if (!creator.agreementAccepted) {
      throw new ApiError(
        'agreement_outdated',
        'The creator has not accepted the current creator agreement; they accept it in the studio before publishing.',
      );
    }
    const result = await publishRelease(ctx.stores, guide.id, guide.creatorId, ctx.clock.today(), {
      keyId: ctx.principal.keyId,
      needsLive: true,
    });
    const { number, publishedAt } = result.release;
    return {
      productId: guide.id,
      published: result.published,
      release: { number, publishedAt },
      changes: result.changes,
      message: result.published
        ? `Release ${number} is what buyers see now.`
        : `Nothing changed since release ${number}; no new release was made.`,
    };
  },
});

export const publishOperations = [getGuideReadiness, getPublishStatus, publishChanges];
