import { notFound } from '../../core/errors.ts';
import type { OperationContext, PrepareContext } from '../../core/operation.ts';
import { type BlobStore, deleteBlobs, newBlobKey } from './blob-store.ts';
import { thumbnail4x5 } from './image-pipeline.ts';
import { mediaPath } from './media-files.ts';

/** A 4:5 store thumbnail rendered and stored, waiting for the guide to name it. */
export interface PreparedThumbnail {
  mediaId: string;
  /** Path of the thumbnail's file (`/media/<key>.webp`), as the guide stores it. */
  path: string;
  key: string;
}

/**
 * Renders the 4:5 thumbnail of one of the guide's photos around its focal point and stores it,
 * outside the write's transaction. It is cut from the photo's large display size (2048 px), which
 * holds more than the 800 x 1000 thumbnail needs and decodes far faster than the original.
 */
export async function prepareThumbnail(
  ctx: PrepareContext,
  productId: string,
  mediaId: string,
  focal?: { x: number | null; y: number | null },
): Promise<PreparedThumbnail> {
  const photo = await ctx.stores.media.requireOwned(ctx.principal.creatorId, mediaId);
  if (photo.guideId !== productId) throw notFound('photo', mediaId);
  const source = await ctx.services.blobs.get(photo.files.large.key);
  if (!source) throw new Error(`the large file of photo ${photo.mediaId} is missing`);
  const { x, y } = focal ?? { x: photo.meta.focalX, y: photo.meta.focalY };
  const rendered = await thumbnail4x5(source.bytes, x, y);
  const blob = await ctx.services.blobs.put(newBlobKey(), rendered.bytes, rendered.contentType);
  return { mediaId: photo.mediaId, path: mediaPath(blob), key: blob.key };
}

export async function discardThumbnail(blobs: BlobStore, prepared: PreparedThumbnail | undefined): Promise<void> {
  if (prepared) await deleteBlobs(blobs, [prepared.key]);
}

/** Names the prepared thumbnail on the guide; the photo must still be the guide's. */
export async function setGuideThumbnail(
  ctx: OperationContext,
  guideId: string,
  prepared: PreparedThumbnail,
): Promise<void> {
  if (!(await ctx.stores.media.photoOf(guideId, prepared.mediaId))) throw notFound('photo', prepared.mediaId);
  // The old file stays while a release or the history names it; the sweep removes it after.
  await ctx.stores.guides.update(guideId, { thumbnail: { mediaId: prepared.mediaId, url: prepared.path } });
}

/**
 * A focal point that moves re-cuts the guide's thumbnail when this photo is it: rendered before
 * the write, outside its transaction; undefined when the photo is no thumbnail or the point stays.
 */
export async function prepareRecut(
  ctx: PrepareContext,
  mediaId: string,
  focal: { focalX?: number | null | undefined; focalY?: number | null | undefined },
): Promise<PreparedThumbnail | undefined> {
  if (focal.focalX === undefined && focal.focalY === undefined) return undefined;
  const photo = await ctx.stores.media.requireOwned(ctx.principal.creatorId, mediaId);
  if ((await ctx.stores.guides.thumbnailOf(photo.guideId))?.mediaId !== photo.mediaId) return undefined;
  const x = focal.focalX === undefined ? photo.meta.focalX : focal.focalX;
  const y = focal.focalY === undefined ? photo.meta.focalY : focal.focalY;
  if (x === photo.meta.focalX && y === photo.meta.focalY) return undefined;
  return prepareThumbnail(ctx, photo.guideId, photo.mediaId, { x, y });
}

/**
 * Names a re-cut thumbnail when the guide's thumbnail is still this photo (another call may have
 * changed it meanwhile); otherwise its file goes after commit.
 */
export async function applyRecut(ctx: OperationContext, guideId: string, recut: PreparedThumbnail): Promise<void> {
  if ((await ctx.stores.guides.thumbnailOf(guideId))?.mediaId === recut.mediaId) {
    await setGuideThumbnail(ctx, guideId, recut);
  } else {
    ctx.afterCommit(() => discardThumbnail(ctx.services.blobs, recut));
  }
}

/** Removes the guide's thumbnail (only when made from `fromMediaId`, if given); the sweep removes its file later. */
export async function clearGuideThumbnail(ctx: OperationContext, guideId: string, fromMediaId?: string): Promise<void> {
  const old = await ctx.stores.guides.thumbnailOf(guideId);
  if (!old || (fromMediaId !== undefined && old.mediaId !== fromMediaId)) return;
  await ctx.stores.guides.update(guideId, { thumbnail: null });
}
