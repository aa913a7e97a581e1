import { z } from 'zod';
import { ApiError, refuse } from '../../core/errors.ts';
import { pageFields } from '../../core/guide-pages.ts';
import { defineOperation } from '../../core/operation.ts';
import {
  nameContainsField,
  pageInputShape,
  pageOf,
  pageOutputShape,
  readPageRequest,
  rowsAndTotal,
  type SortValue,
  viewField,
} from '../../core/paging.ts';
import { STABLE_SINCE } from '../../core/versions.ts';
import { currencyCodeSchema } from '../../shared/codes.ts';
import { bboxContains, unpairedCoordinate } from '../../shared/geo.ts';
import { productIdSchema } from '../../shared/id-fields.ts';
import { clearable, slugify, slugSchema, text } from '../../shared/text.ts';
import {
  clearGuideThumbnail,
  discardThumbnail,
  type PreparedThumbnail,
  prepareThumbnail,
  setGuideThumbnail,
} from '../media/index.ts';
import { guidesExamples } from './examples.ts';
import {
  type CompactGuide,
  compactGuideSchema,
  countrySchema,
  guideNameSchema,
  guideSchema,
  guideWithCountsSchema,
  mapRegionSchema,
  storeTags,
} from './guide.schema.ts';
import type { GuideRecordRow, GuideRow } from './guide.store.ts';
import { cachedGuideRecord, guideRecord, recordOf } from './guide-records.ts';

/** Guides a page holds: a guide record with its areas and properties can reach several KB. */
const GUIDE_PAGE = { default: 20, max: 100 };

export const listGuides = defineOperation({
  name: 'list_guides',
  title: 'List guides',
  method: 'GET',
  path: '/guides',
  scope: 'read',
  stability: 'stable',
  since: STABLE_SINCE,
  example: guidesExamples.list_guides,
  description:
    "Lists the creator's guides, most recently changed first, drafts, live and archived alike, a page at a time " +
    '(see Paging). view compact holds productId, name, slug, status, updatedAt.',
  input: z.strictObject({
    status: z.enum(['draft', 'published', 'archived']).optional().describe('Only guides in this state'),
    nameContains: nameContainsField,
    view: viewField,
    ...pageInputShape(GUIDE_PAGE),
  }),
  output: z.object({
    count: z.number().describe('Guides in this answer'),
    guides: z.array(z.union([guideSchema, compactGuideSchema])),
    ...pageOutputShape,
  }),
  async handler(input, ctx) {
    const { guides } = ctx.stores;
    const creatorId = ctx.principal.creatorId;
    const filter = { status: input.status, nameContains: input.nameContains };
    const request = readPageRequest(input, GUIDE_PAGE);
    const compact = input.view === 'compact';
    const [rows, total] = await rowsAndTotal<GuideRow>(
      request,
      () =>
        compact ? guides.pageOwned(creatorId, filter, request) : guides.pageOwnedRecords(creatorId, filter, request),
      async (known) => known ?? guides.countOwned(creatorId, filter),
    );
    const items = compact ? rows.map(compactGuide) : rows.map((row) => recordOf(row as GuideRecordRow, ctx.urls));
    const sortKeys = new Map<object, SortValue[]>(
      items.map((item, i) => [item, [Number(rows[i]?.updated_at), rows[i]?.id ?? '']]),
    );
    const page = pageOf(items, request, total, (item) => sortKeys.get(item) ?? []);
    return { count: page.items.length, guides: page.items, ...pageFields(page) };
  },
});

function compactGuide(row: GuideRow): CompactGuide {
  return { productId: row.id, name: row.name, slug: row.slug, status: row.status, updatedAt: Number(row.updated_at) };
}

export const createGuide = defineOperation({
  name: 'create_guide',
  title: 'Create a guide',
  method: 'POST',
  path: '/guides',
  scope: 'write',
  stability: 'stable',
  since: STABLE_SINCE,
  example: guidesExamples.create_guide,
  location: (guide) => `/guides/${guide.productId}`,
  successStatus: 201,
  description:
    'Creates an empty draft guide, visible nowhere until the creator puts it on sale in the studio. ' +
    'The slug is derived from the name unless given; a derived slug that clashes gets -2, -3…',
  input: z.strictObject({
    name: guideNameSchema,
    slug: slugSchema
      .optional()
      .describe('Sales-page URL slug: lowercase letters, digits and hyphens; refused if another of your guides has it'),
  }),
  output: guideSchema,
  async handler(input, ctx) {
    const { guides } = ctx.stores;
    const creatorId = ctx.principal.creatorId;
    await guides.lockCreatorsGuides(creatorId);
    let slug: string;
    if (input.slug !== undefined) {
      if (await guides.slugTaken(creatorId, input.slug)) {
        throw refuse('slug', `another of your guides already uses "${input.slug}"; choose another slug or omit it.`);
      }
      slug = input.slug;
    } else {
      slug = await guides.freeSlug(creatorId, slugify(input.name));
    }
    const id = await guides.create(creatorId, input.name, slug);
    return guideRecord(ctx.stores, id, ctx.urls);
  },
});

export const getGuide = defineOperation({
  name: 'get_guide',
  title: 'Get a guide',
  method: 'GET',
  path: '/guides/{productId}',
  scope: 'read',
  stability: 'stable',
  since: STABLE_SINCE,
  example: guidesExamples.get_guide,
  description: 'Reads a guide (a product of type map) with its chapter and photo counts.',
  input: z.strictObject({ productId: productIdSchema }),
  output: guideWithCountsSchema,
  // Not async: a kept record is answered as it is (core/invoke.ts).
  handler(input, ctx) {
    return cachedGuideRecord(ctx.stores, ctx.principal.creatorId, input.productId, ctx.urls);
  },
});

export const updateGuide = defineOperation({
  name: 'update_guide',
  title: 'Update a guide',
  method: 'PATCH',
  path: '/guides/{productId}',
  scope: 'write',
  stability: 'stable',
  since: STABLE_SINCE,
  example: guidesExamples.update_guide,
  description:
    'Changes only the fields sent. Store visibility and putting on sale are studio moves and cannot be set here. ' +
    'The slug stays as it is when the name changes, so sales-page links keep working.',
  input: z.strictObject({
    productId: productIdSchema,
    name: guideNameSchema.optional(),
    headline: text(200).optional().describe('One-line promise, at most 200 characters; "" clears it'),
    purchaseButtonText: text(60)
      .optional()
      .describe('Buy button label, at most 60 characters; "" resets it to the default label'),
    country: countrySchema
      .optional()
      .describe('ISO 3166-1 alpha-2; replaces any countries set in the studio; "" means worldwide'),
    reviewsShown: z.boolean().optional().describe('Show buyer reviews on the store card'),
    storeTags: z
      .array(z.enum(storeTags))
      .max(storeTags.length)
      .optional()
      .describe('Full replacement, from the store vocabulary'),
    thumbnailMediaId: z
      .string()
      .min(1)
      .optional()
      .describe(
        'A photo of this guide (mediaId from list_media): the 4:5 store thumbnail is cut around its focal point',
      ),
    clearThumbnail: z.boolean().optional().describe('true removes the store thumbnail'),
  }),
  output: guideSchema,
  // The thumbnail is rendered and stored before the write, outside its transaction.
  async prepare(input, ctx): Promise<PreparedThumbnail | undefined> {
    if (input.clearThumbnail === true && input.thumbnailMediaId !== undefined) {
      throw refuse('clearThumbnail', 'cannot be combined with thumbnailMediaId: send one or the other.');
    }
    if (input.thumbnailMediaId === undefined) return undefined;
    return prepareThumbnail(ctx, input.productId, input.thumbnailMediaId);
  },
  discard: (prepared, ctx) => discardThumbnail(ctx.services.blobs, prepared),
  async handler(input, ctx, thumbnail) {
    const guide = await ctx.guide(input.productId);
    if (thumbnail) await setGuideThumbnail(ctx, guide.id, thumbnail);
    if (input.clearThumbnail === true) await clearGuideThumbnail(ctx, guide.id);
    await ctx.stores.guides.update(guide.id, {
      name: input.name,
      headline: clearable(input.headline),
      purchaseButtonText: clearable(input.purchaseButtonText),
      country: clearable(input.country),
      reviewsShown: input.reviewsShown,
      storeTags: input.storeTags === undefined ? undefined : [...new Set(input.storeTags)],
    });
    return guideRecord(ctx.stores, guide.id, ctx.urls);
  },
});

export const setGuideRegion = defineOperation({
  name: 'set_guide_region',
  title: "Set a guide's map region",
  method: 'PUT',
  path: '/guides/{productId}/region',
  scope: 'write',
  stability: 'stable',
  since: STABLE_SINCE,
  example: guidesExamples.set_guide_region,
  description:
    'Replaces the opening map region whole: fields left out are cleared, and a call with none clears the region. ' +
    'Give centerLat and centerLon together; the bbox should contain every spot.',
  input: mapRegionSchema.extend({ productId: productIdSchema }),
  output: z.object({ ok: z.literal(true), productId: z.string(), region: mapRegionSchema.nullable() }),
  async handler({ productId, ...region }, ctx) {
    const guide = await ctx.guide(productId);
    const unpaired = unpairedCoordinate(region, 'centerLat', 'centerLon');
    if (unpaired) throw refuse(unpaired.missing, `${unpaired.message}.`);
    if (region.bbox && region.centerLat !== undefined && region.centerLon !== undefined) {
      if (!bboxContains(region.bbox, region.centerLat, region.centerLon)) {
        ctx.warn('The map centre lies outside the bbox: the map would open away from the region.');
      }
    }
    const stored = Object.keys(region).length === 0 ? null : region;
    await ctx.stores.guides.update(guide.id, { region: stored });
    return { ok: true as const, productId: guide.id, region: stored };
  },
});

export const setGuidePrice = defineOperation({
  name: 'set_guide_price',
  title: "Set a guide's price",
  method: 'PUT',
  path: '/guides/{productId}/price',
  scope: 'write',
  stability: 'stable',
  since: STABLE_SINCE,
  example: guidesExamples.set_guide_price,
  description:
    'Sets the one-time price. Prices come from the creator, never from the assistant: ask before calling. ' +
    'Each change adds a new immutable price row; the creator must have accepted the current creator agreement.',
  errors: ['agreement_outdated'],
  // Every call adds a price row, even with the same amount: not idempotent, whatever PUT suggests.
  annotations: { idempotent: false },
  input: z.strictObject({
    productId: productIdSchema,
    amountMinor: z.number().int().min(900).max(100_000_000).describe('Minor units, at least 900: 2900 means 29.00'),
    currency: currencyCodeSchema,
  }),
  output: z.object({
    ok: z.literal(true),
    productId: z.string(),
    productPriceId: z.string(),
    amountMinor: z.number(),
    currency: z.string(),
  }),
  async handler(input, ctx) {
    const guide = await ctx.guide(input.productId);
    const creator = await ctx.stores.creators.require(ctx.principal.creatorId);
    if (!creator.agreementAccepted) {
      throw new ApiError(
        'agreement_outdated',
        'The creator has not accepted the current creator agreement: accept it in the studio, then set the price again.',
      );
    }
    const currency = input.currency.toLowerCase();
    const productPriceId = await ctx.stores.guides.insertPrice(guide.id, input.amountMinor, currency);
    return { ok: true as const, productId: guide.id, productPriceId, amountMinor: input.amountMinor, currency };
  },
});

export const guideOperations = [listGuides, createGuide, getGuide, updateGuide, setGuideRegion, setGuidePrice];
