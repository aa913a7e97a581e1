import { z } from 'zod';
import { ApiError } from '../../core/errors.ts';
import { defineOperation } from '../../core/operation.ts';
import { STABLE_SINCE } from '../../core/versions.ts';
import { productIdSchema } from '../../shared/ids.ts';
import { publishingExamples } from './examples.ts';
import { readGuideContents } from './guide-contents.ts';
import { blockingGates, publishRelease } from './publish-gates.ts';
import { findingKinds, readinessOf } from './readiness.ts';
import { diffRowHashes, releaseKinds, serializeSnapshot, snapshotRows } from './snapshot.ts';

const findingSchema = z.object({
  code: z.string().describe('Stable; the authoring guide lists every code'),
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
    'Lists what stands between the working copy and buyers: blocking findings stop publish_changes (no price, no ' +
    'spots, agreement not accepted, photos without a credit, required properties left empty); warnings do not ' +
    '(spots outside the region, photos far from their pin, fees, hours, notices and timetables that ran out, fees ' +
    'unchecked for a year, rows past reviewBy, empty chapters). Each finding says where and what to do. Blocking first.',
  input: z.strictObject({ productId: productIdSchema }),
  output: z.object({
    productId: z.string(),
    today: z.string(),
    ready: z.boolean().describe('No blocking finding'),
    blockingCount: z.number(),
    warningCount: z.number(),
    findings: z.array(findingSchema),
  }),
  async handler(input, ctx) {
    const guide = await ctx.guide(input.productId);
    const today = ctx.clock.today();
    const findings = readinessOf(await readGuideContents(ctx.stores, guide.id, guide.creatorId), today);
    const blockingCount = findings.filter((f) => f.severity === 'blocking').length;
    return {
      productId: guide.id,
      today,
      ready: blockingCount === 0,
      blockingCount,
      warningCount: findings.length - blockingCount,
      findings,
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
    'and what would block or warn on publish_changes. Call it before publishing and tell the creator what will change.',
  input: z.strictObject({ productId: productIdSchema }),
  output: z.object({
    productId: z.string(),
    live: z.boolean().describe('On sale (status published)'),
    currentRelease: releaseSchema.nullable().describe('What buyers see; null before the first publish'),
    differs: z.boolean().describe('The working copy has changes buyers do not see yet'),
    changes: changesSchema,
    blocking: z.array(gateSchema).describe('Open gates; empty when publish_changes would go through'),
    warnings: z.array(gateSchema),
  }),
  async handler(input, ctx) {
    const guide = await ctx.guide(input.productId);
    const contents = await readGuideContents(ctx.stores, guide.id, guide.creatorId);
    const findings = readinessOf(contents, ctx.clock.today());
    const working = serializeSnapshot(snapshotRows(contents));
    const current = await ctx.stores.releases.latestHashes(guide.id);
    const differs = current?.contentHash !== working.hash;
    return {
      productId: guide.id,
      live: contents.guide.status === 'published',
      currentRelease: current ? { number: current.number, publishedAt: current.publishedAt } : null,
      differs,
      changes: differs ? diffRowHashes(current?.rowHashes, working.rowHashes) : [],
      blocking: blockingGates(contents, findings, true),
      warnings: findings.filter((f) => f.severity === 'warning').map(({ code, message }) => ({ code, message })),
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
    const result = await publishRelease(
      ctx.stores,
      guide.id,
      guide.creatorId,
      ctx.clock.today(),
      ctx.principal.keyId,
      true,
    );
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
