import { refuse } from '../../core/errors.ts';
import type { OperationContext } from '../../core/operation.ts';
import type { ChapterKind } from './chapter.schema.ts';

/** What a chapter's input is checked against, for one guide, loaded as the checks ask. */
export interface ChapterRules {
  guideId: string;
  /** Spots of this guide by key (archived ones included). */
  spotsByKey(keys: readonly string[]): Promise<Map<string, { spotId: string; archived: boolean }>>;
  /** Which of these ids are chapters of this guide, with their kinds. */
  chapterKinds(ids: readonly string[]): Promise<Map<string, ChapterKind>>;
  slugHolder(slug: string): Promise<string | undefined>;
  requireOwnImage(path: string, storageId: string): Promise<void>;
  requireGuidePhoto(path: string, mediaId: string): Promise<void>;
  warn(message: string): void;
}

/*
 * Every look-up of a photo a chapter names goes through here: images uploaded with target=blob
 * (covers, intro photos) must be the caller's; photos (media rows) must be of the chapter's guide.
 */

/** An image this creator uploaded with target=blob, or invalid_request naming `path`. */
async function requireOwnImage(ctx: OperationContext, path: string, storageId: string): Promise<void> {
  if (!(await ctx.stores.media.blobOf(ctx.principal.creatorId, storageId))) {
    throw refuse(path, 'no image uploaded with target=blob by you has this storageId');
  }
}

/** A photo (media row) of this guide, or invalid_request naming `path`. */
async function requireGuidePhoto(ctx: OperationContext, guideId: string, path: string, mediaId: string): Promise<void> {
  if (!(await ctx.stores.media.photoOf(guideId, mediaId))) {
    throw refuse(path, 'no photo of this guide has this mediaId');
  }
}

export function chapterRules(ctx: OperationContext, guideId: string): ChapterRules {
  const { spots, chapters } = ctx.stores;
  return {
    guideId,
    spotsByKey: async (keys) => {
      const found = await spots.findByKeys(guideId, [...new Set(keys)]);
      return new Map([...found].map(([key, spot]) => [key, { spotId: spot.spotId, archived: spot.archived }]));
    },
    chapterKinds: (ids) => chapters.kindsIn(guideId, ids),
    slugHolder: (slug) => chapters.slugHolder(guideId, slug),
    requireOwnImage: (path, storageId) => requireOwnImage(ctx, path, storageId),
    requireGuidePhoto: (path, mediaId) => requireGuidePhoto(ctx, guideId, path, mediaId),
    warn: ctx.warn,
  };
}
