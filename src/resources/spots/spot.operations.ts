import { z } from 'zod';
import { ApiError, notFound, refuse } from '../../core/errors.ts';
import { type GuideList, guidePage, pageFields } from '../../core/guide-pages.ts';
import { openOwned } from '../../core/guide-records.ts';
import { defineOperation } from '../../core/operation.ts';
import { nameContainsField, pageInputShape, pageOutputShape, viewField } from '../../core/paging.ts';
import { STABLE_SINCE } from '../../core/versions.ts';
import { answerField, answersFull } from '../../core/write-answer.ts';
import { productIdSchema } from '../../shared/id-fields.ts';
import { candidateStem, firstFree, slugify } from '../../shared/text.ts';
import { spotsExamples } from './examples.ts';
import { applySpotWrites, planSpotWrites, type SpotWritePlan, spotRules } from './spot.batch.ts';
import { applySpotFields, emptySpot } from './spot.input.ts';
import {
  type CompactSpot,
  compactSpotSchema,
  type Spot,
  spotFieldsSchema,
  spotIdSchema,
  spotKeySchema,
  spotRefSchema,
  spotSchema,
} from './spot.schema.ts';
import { publicSpot, type SpotFilter, type SpotRow } from './spot.store.ts';

const BATCH_MAX = 25;

const createInput = spotFieldsSchema
  .partial()
  .extend({ productId: productIdSchema, spotKey: spotKeySchema.optional(), name: spotFieldsSchema.shape.name })
  .strict();

export const createSpot = defineOperation({
  name: 'create_spot',
  title: 'Create a spot',
  method: 'POST',
  path: '/guides/{productId}/spots',
  scope: 'write',
  stability: 'stable',
  since: STABLE_SINCE,
  example: spotsExamples.create_spot,
  location: (spot) => `/spots/${spot.spotId}`,
  successStatus: 201,
  description:
    'Adds a spot, a place a buyer goes to see, at the end of the guide. Choose a spotKey to refer to it later ' +
    '(upsert_spots matches on it); otherwise it is derived from the name. The time zone follows the pin.',
  input: createInput,
  output: spotSchema,
  async handler({ productId, spotKey, ...fields }, ctx) {
    const guide = await ctx.guide(productId);
    const { spots } = ctx.stores;
    let key: string;
    if (spotKey !== undefined) {
      if ((await spots.findByKeys(guide.id, [spotKey])).size > 0) {
        throw refuse(
          'spotKey',
          `another spot of this guide already has the key "${spotKey}"; choose another, or update that spot.`,
        );
      }
      key = spotKey;
    } else {
      const base = slugify(fields.name, 'spot');
      key = firstFree(base, await spots.keysLike(guide.id, candidateStem(base)));
    }
    const state = await applySpotFields(emptySpot(key, fields.name), fields, spotRules(ctx, guide.id));
    const id = await spots.insert(guide.id, state, await spots.order.next(guide.id));
    return publicSpot(await spots.require(id));
  },
});

export const getSpot = defineOperation({
  name: 'get_spot',
  title: 'Get a spot',
  method: 'GET',
  path: '/spots/{spotId}',
  scope: 'read',
  stability: 'stable',
  since: STABLE_SINCE,
  example: spotsExamples.get_spot,
  description: 'Reads one spot, archived or not, with every field.',
  input: z.strictObject({ spotId: spotIdSchema }),
  output: spotSchema,
  async handler(input, ctx) {
    return publicSpot(await ctx.stores.spots.requireOwned(ctx.principal.creatorId, input.spotId));
  },
});

export const updateSpot = defineOperation({
  name: 'update_spot',
  title: 'Update a spot',
  method: 'PATCH',
  path: '/spots/{spotId}',
  scope: 'write',
  stability: 'stable',
  since: STABLE_SINCE,
  example: spotsExamples.update_spot,
  description:
    'Changes only the fields sent. "" clears a string, null clears a nullable field, arrays replace whole; ' +
    'customValues and customNotes merge by key (null removes one). The spotKey never changes.',
  input: spotFieldsSchema
    .partial()
    .extend({ spotId: spotIdSchema, spotKey: z.string().optional().describe('Immutable: may be sent only unchanged') })
    .strict(),
  output: spotSchema,
  async handler({ spotId, spotKey, ...fields }, ctx) {
    const { spots } = ctx.stores;
    const spot = await openOwned(ctx, spots, spotId);
    if (spotKey !== undefined && spotKey !== spot.spotKey) {
      throw refuse('spotKey', `is immutable: this spot stays "${spot.spotKey}". Create a new spot for a new key.`);
    }
    const state = await applySpotFields(spot, fields, spotRules(ctx, spot.guideId));
    return publicSpot(await spots.replace(spot.spotId, state));
  },
});

/** Spots a page holds: 50 full spots are about 45 KB; compact ones ask for more. */
export const SPOT_PAGE = { default: 50, max: 500 };

export const listSpots = defineOperation({
  name: 'list_spots',
  title: 'List spots',
  method: 'GET',
  path: '/guides/{productId}/spots',
  scope: 'read',
  stability: 'stable',
  since: STABLE_SINCE,
  example: spotsExamples.list_spots,
  description:
    "Lists a guide's spots in guide order, a page at a time (see Paging). Archived spots only on request. " +
    'view compact holds spotId, spotKey, name, lat, lon, areaId, archived.',
  input: z.strictObject({
    productId: productIdSchema,
    includeArchived: z.boolean().optional().describe('true lists archived spots too'),
    areaId: z.string().min(1).optional().describe('Only spots of this area'),
    collectionId: z.string().min(1).max(100).optional().describe('Only members of this chapter or collection'),
    nameContains: nameContainsField,
    view: viewField,
    ...pageInputShape(SPOT_PAGE),
  }),
  output: z.object({
    productId: z.string(),
    count: z.number().describe('Spots in this answer'),
    spots: z.array(z.union([spotSchema, compactSpotSchema])),
    ...pageOutputShape,
  }),
  async handler(input, ctx) {
    const { spots, chapters } = ctx.stores;
    const filter: SpotFilter = {
      includeArchived: input.includeArchived === true,
      areaId: input.areaId,
      collectionId: input.collectionId,
      nameContains: input.nameContains,
    };
    const view = input.view ?? 'full';
    const chapterOf = async (guideId: string) => {
      if (filter.collectionId === undefined) return;
      const owner = await chapters.guideOfOwned(ctx.principal.creatorId, filter.collectionId);
      if (owner !== guideId) throw notFound('chapter', filter.collectionId);
    };
    const list: GuideList<SpotRow, Spot | CompactSpot> = {
      scope: `spots archived=${filter.includeArchived} area=${filter.areaId ?? '*'} chapter=${filter.collectionId ?? '*'} name=${filter.nameContains ?? '*'}`,
      variant: view,
      size: SPOT_PAGE,
      async read(guideId, request) {
        // A chapter of another guide, or of nobody the caller knows, is not found on any page.
        const [rows] = await Promise.all([spots.page(guideId, filter, request, view), chapterOf(guideId)]);
        return rows;
      },
      count: (guideId) => spots.count(guideId, filter),
      sortKey: (row) => row.sortKey,
      present: (row) => ('guideId' in row.spot ? publicSpot(row.spot) : row.spot),
    };
    return guidePage(ctx.stores, ctx.principal.creatorId, input.productId, list, input, (guideId, page) => ({
      productId: guideId,
      count: page.items.length,
      spots: page.items,
      ...pageFields(page),
    }));
  },
});

export const deleteSpot = defineOperation({
  name: 'delete_spot',
  title: 'Delete a spot',
  method: 'DELETE',
  path: '/spots/{spotId}',
  scope: 'write',
  stability: 'stable',
  since: STABLE_SINCE,
  example: spotsExamples.delete_spot,
  description:
    'Deletes a spot for good, with its chapter and route links and its itinerary stops. Confirm with the creator first. ' +
    'A spot of a guide someone bought cannot be deleted (guide_sold): archive it with update_spot instead.',
  input: z.strictObject({ spotId: spotIdSchema }),
  errors: ['guide_sold'],
  output: z.object({ ok: z.literal(true), spotId: z.string(), deleted: z.literal(true) }),
  async handler(input, ctx) {
    const spot = await openOwned(ctx, ctx.stores.spots, input.spotId);
    if (await ctx.stores.guides.hasBuyers(spot.guideId)) {
      throw new ApiError(
        'guide_sold',
        'Someone bought this guide, so its spots cannot be deleted. Set archived true with update_spot to hide it instead.',
      );
    }
    await ctx.deleteReferencesTo('spot', spot);
    await ctx.stores.spots.delete(spot.spotId);
    return { ok: true as const, spotId: spot.spotId, deleted: true as const };
  },
});

const batchItemSchema = spotFieldsSchema
  .partial()
  .extend({
    spotKey: spotKeySchema.describe('Your reference for the spot: matched against existing spots of the guide'),
  })
  .strict();

export const upsertSpots = defineOperation({
  name: 'upsert_spots',
  title: 'Create or update spots in one call',
  method: 'POST',
  path: '/guides/{productId}/spots/batch',
  scope: 'write',
  stability: 'stable',
  since: STABLE_SINCE,
  example: spotsExamples.upsert_spots,
  description:
    `Creates or updates up to ${BATCH_MAX} spots matched on spotKey: a key the guide has is updated (only the fields sent), ` +
    'a new key creates a spot (name required then); one already as sent is left unchanged. All or nothing: one bad ' +
    'item refuses the batch, naming its index.',
  input: z.strictObject({
    productId: productIdSchema,
    spots: z.array(batchItemSchema).min(1).max(BATCH_MAX).describe(`1 to ${BATCH_MAX} spots, each with its spotKey`),
    answer: answerField,
  }),
  output: z.object({
    productId: z.string(),
    created: z.array(z.string()).describe('spotKeys of the spots created'),
    updated: z.array(z.string()).describe('spotKeys of the spots changed'),
    unchanged: z.array(z.string()).describe('spotKeys of the spots that already held what was sent (nothing written)'),
    spots: z
      .array(z.union([spotSchema, spotRefSchema]))
      .describe('In the order sent: spotId and spotKey, or the spots as stored with answer full'),
  }),
  async handler(input, ctx) {
    const guide = await ctx.guide(input.productId);
    const keys = input.spots.map((s) => s.spotKey);
    keys.forEach((key, i) => {
      if (keys.indexOf(key) !== i)
        throw refuse(`spots[${i}].spotKey`, `"${key}" is already item ${keys.indexOf(key)} of this batch.`);
    });
    const plans = await planSpotWrites(ctx, guide.id, input.spots, (i) => `spots[${i}]`);
    const refs = await applySpotWrites(ctx.stores, guide.id, plans);
    const keysOf = (action: SpotWritePlan['action']) => plans.filter((p) => p.action === action).map((p) => p.spotKey);
    const answered = answersFull(input)
      ? (await ctx.stores.spots.getMany(refs.map((r) => r.spotId))).map(publicSpot)
      : refs;
    return {
      productId: guide.id,
      created: keysOf('create'),
      updated: keysOf('update'),
      unchanged: keysOf('unchanged'),
      spots: answered,
    };
  },
});

export const spotOperations = [listSpots, createSpot, getSpot, updateSpot, deleteSpot, upsertSpots];
