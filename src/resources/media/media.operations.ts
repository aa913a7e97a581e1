import { z } from 'zod';
import { ApiError } from '../../core/errors.ts';
import { type GuideList, guidePage, pageFields } from '../../core/guide-pages.ts';
import { openOwned } from '../../core/guide-records.ts';
import { defineOperation, type OperationContext } from '../../core/operation.ts';
import { pageInputShape, pageOutputShape, viewField } from '../../core/paging.ts';
import { STABLE_SINCE } from '../../core/versions.ts';
import { productIdSchema } from '../../shared/id-fields.ts';
import { deleteBlobs } from './blob-store.ts';
import { mediaExamples } from './examples.ts';
import {
  applyMeta,
  type CompactMedia,
  compactMediaSchema,
  type Media,
  mediaIdSchema,
  mediaMetaFields,
  mediaSchema,
  spotIdSchema,
} from './media.schema.ts';
import type { MediaRecord } from './media.store.ts';
import { keysOf } from './media-files.ts';
import { compactMedia, publicMedia } from './media-records.ts';
import { uploadMedia, uploadMediaBatch } from './media-upload.operations.ts';
import { applyRecut, discardThumbnail, prepareRecut } from './thumbnail.ts';

/**
 * Moves the photo to another spot of its guide; its mediaId stays, so whatever names it (pages,
 * itineraries, the sales page, the thumbnail) keeps showing it. A spot of another guide is
 * not_found, as a missing one is: a photo never leaves its guide.
 */
async function moveToSpot(ctx: OperationContext, photo: MediaRecord, spotId: string | null): Promise<void> {
  if (spotId !== null) {
    const spot = await ctx.stores.media.spotOf(photo.guideId, spotId);
    if (!spot) {
      throw new ApiError(
        'not_found',
        `No spot with id ${JSON.stringify(spotId)} in this photo's guide: take spotId from its list_spots ` +
          '(a photo moves only within its guide).',
      );
    }
    if (spot.archived)
      ctx.warn('spotId: that spot is archived, so buyers will not see this photo until it is unarchived.');
  }
  await ctx.stores.media.moveToSpot(photo, spotId);
}

/** Photos a page holds: a full photo with its URLs is about 1.5 KB. */
const MEDIA_PAGE = { default: 50, max: 500 };

export const listMedia = defineOperation({
  name: 'list_media',
  title: "List a guide's photos",
  method: 'GET',
  path: '/guides/{productId}/media',
  scope: 'read',
  stability: 'stable',
  since: STABLE_SINCE,
  description:
    "Lists the guide's photos in their order (optionally one spot's), with image URLs per size and every metadata " +
    'field, a page at a time (see Paging). view compact holds mediaId, spotId, spotKey, order, alt, caption, credit. ' +
    'Stored images (uploads with target=blob) are not listed.',
  input: z.strictObject({
    productId: productIdSchema,
    spotId: spotIdSchema.optional().describe("Only this spot's photos"),
    view: viewField,
    ...pageInputShape(MEDIA_PAGE),
  }),
  output: z.object({
    productId: z.string(),
    count: z.number().describe('Photos in this answer'),
    media: z.array(z.union([mediaSchema, compactMediaSchema])),
    ...pageOutputShape,
  }),
  example: mediaExamples.list_media,
  async handler(input, ctx) {
    const { media } = ctx.stores;
    const view = input.view ?? 'full';
    const list: GuideList<MediaRecord, Media | CompactMedia> = {
      scope: `media spot=${input.spotId ?? '*'}`,
      variant: `${view} ${ctx.urls.publicUrl}`,
      size: MEDIA_PAGE,
      read: (guideId, request) => media.page(guideId, input.spotId, request),
      count: (guideId) => media.count(guideId, input.spotId),
      sortKey: (row) => [row.order, row.createdAt, row.mediaId],
      present: (row) => (view === 'compact' ? compactMedia(row) : publicMedia(row, ctx.urls)),
    };
    return guidePage(ctx.stores, ctx.principal.creatorId, input.productId, list, input, (guideId, page) => ({
      productId: guideId,
      count: page.items.length,
      media: page.items,
      ...pageFields(page),
    }));
  },
});

export const updateMedia = defineOperation({
  name: 'update_media',
  title: "Update a photo's details",
  method: 'PATCH',
  path: '/media/{mediaId}',
  scope: 'write',
  stability: 'stable',
  since: STABLE_SINCE,
  description:
    'Changes only the fields sent; null clears a field, and "" clears the text fields. A photo without a ' +
    'credit can be drafted but not published. Moving focalX or focalY re-cuts a guide thumbnail made from this photo. spotId moves the photo to ' +
    'another spot of its guide; chapters, itineraries and the sales page keep showing it.',
  input: z.strictObject({
    mediaId: mediaIdSchema,
    spotId: spotIdSchema
      .nullable()
      .optional()
      .describe("Move it to this spot of its guide (after that spot's photos); null: a photo of the guide itself"),
    ...mediaMetaFields,
  }),
  output: z.object({ ok: z.literal(true), mediaId: z.string() }),
  // A moved focal point re-cuts the guide's thumbnail from this photo: rendered outside the transaction.
  prepare: (input, ctx) => prepareRecut(ctx, input.mediaId, input),
  discard: (recut, ctx) => discardThumbnail(ctx.services.blobs, recut),
  example: mediaExamples.update_media,
  async handler({ mediaId, spotId, ...fields }, ctx, recut) {
    const photo = await openOwned(ctx, ctx.stores.media, mediaId);
    if (spotId !== undefined && spotId !== photo.spotId) await moveToSpot(ctx, photo, spotId);
    await ctx.stores.media.updateMeta(photo, applyMeta(photo.meta, fields));
    if (recut) await applyRecut(ctx, photo.guideId, recut);
    return { ok: true as const, mediaId: photo.mediaId };
  },
});

export const reorderMedia = defineOperation({
  name: 'reorder_media',
  title: 'Move a photo',
  method: 'PUT',
  path: '/media/{mediaId}/order',
  scope: 'write',
  stability: 'stable',
  since: STABLE_SINCE,
  description:
    'Moves a photo: order is a number between the orders of its new neighbours as list_media reads them ' +
    '(e.g. 2.5 between 2 and 3; below the first to lead, above the last to end).',
  input: z.strictObject({
    mediaId: mediaIdSchema,
    order: z.number().min(-1e12).max(1e12).describe('The new order key; fractions are fine'),
  }),
  output: z.object({ ok: z.literal(true), mediaId: z.string(), order: z.number() }),
  example: mediaExamples.reorder_media,
  async handler(input, ctx) {
    const photo = await openOwned(ctx, ctx.stores.media, input.mediaId);
    await ctx.stores.media.setOrder(photo, input.order);
    return { ok: true as const, mediaId: photo.mediaId, order: input.order };
  },
});

export const deleteMedia = defineOperation({
  name: 'delete_media',
  title: 'Delete a photo',
  method: 'DELETE',
  path: '/media/{mediaId}',
  scope: 'write',
  stability: 'stable',
  since: STABLE_SINCE,
  description:
    'Deletes a photo (no undo); confirm with the creator first. It is taken out of every place that shows it: ' +
    'the store thumbnail made from it, chapter page blocks, the sales page draft (hero, gallery); warnings say ' +
    'which draft fields lost it. Buyers see it until the next publish; its files go at once unless a kept ' +
    'release names them.',
  input: z.strictObject({ mediaId: mediaIdSchema }),
  output: z.object({ ok: z.literal(true), mediaId: z.string(), deleted: z.literal(true) }),
  example: mediaExamples.delete_media,
  async handler(input, ctx) {
    const photo = await openOwned(ctx, ctx.stores.media, input.mediaId);
    await ctx.deleteReferencesTo('photo', photo);
    await ctx.stores.media.delete(photo.mediaId);
    // A deleted photo comes back only with a release that held it (a delete cannot be undone, and a
    // later delete refuses the undo of what came before): files no kept release names go at commit,
    // also from a public bucket. Asked inside the write, which holds the guide: no publish can start
    // naming them before the commit.
    const keys = keysOf(photo.files);
    const kept = await ctx.stores.releases.namedFiles(keys);
    const unnamed = keys.filter((key) => !kept.has(key));
    if (unnamed.length > 0) ctx.afterCommit(() => deleteBlobs(ctx.services.blobs, unnamed));
    return { ok: true as const, mediaId: photo.mediaId, deleted: true as const };
  },
});

export const mediaOperations = [listMedia, uploadMedia, uploadMediaBatch, updateMedia, reorderMedia, deleteMedia];
