import { ApiError } from '../../core/errors.ts';
import type { OperationContext } from '../../core/operation.ts';
import type { ChapterKind } from './chapter.schema.ts';
import type { OwnedChapter } from './chapter.store.ts';
import { requireGuidePhoto, requireOwnImage } from './images.ts';

/** What the chapter writers check against, for one guide, loaded as they ask. */
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

/**
 * The caller's chapter with its guide opened first (locked, in a write), then read again, so a
 * write never lands on a chapter changed by a call that committed in between.
 */
export async function openChapter(ctx: OperationContext, chapterId: string): Promise<OwnedChapter> {
  const { guideId } = await ctx.stores.chapters.requireOwned(ctx.principal.creatorId, chapterId);
  await ctx.guide(guideId);
  return ctx.stores.chapters.require(chapterId);
}

/** Text the creator left empty is stored as absent. */
export function filled(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

/** Paragraphs with the empty ones dropped. */
export function nonEmptyParagraphs(paragraphs: readonly string[]): string[] {
  return paragraphs.filter((p) => p.trim() !== '');
}

/** `name` at `path` (`intro.sections[0].photoCredit`), or alone for a top-level field. */
const fieldAt = (path: string, name: string) => (path === '' ? name : `${path}.${name}`);

/** The warning for a credit field sent without its photo: it is not kept, and says so. */
export function droppedWithoutPhoto(path: string, field: string, photo: string): string {
  return `${fieldAt(path, field)} was dropped: a credit is kept only with a photo (send ${photo} with it).`;
}

/**
 * A photo credit next to its photo: without a photo it is dropped with a warning (never kept
 * silently); a photo without one is accepted with a warning, since credits are never invented.
 */
export function creditFor(
  path: string,
  photo: string | undefined,
  credit: string | undefined,
  warn: (message: string) => void,
  names = { photo: 'photoStorageId', credit: 'photoCredit' },
): string | undefined {
  const given = filled(credit);
  if (photo === undefined) {
    if (given !== undefined) warn(droppedWithoutPhoto(path, names.credit, names.photo));
    return undefined;
  }
  if (given === undefined) {
    warn(
      `${fieldAt(path, names.photo)} has no ${names.credit}: ask the creator who took it (shown as "Photo: <name>").`,
    );
  }
  return given;
}

/** 409 stale_editor when the chapter changed after the updatedAt the editor read. */
export function requireFresh(chapter: { updatedAt: number }, expectedUpdatedAt: number | undefined): void {
  if (expectedUpdatedAt === undefined || expectedUpdatedAt === chapter.updatedAt) return;
  throw new ApiError(
    'stale_editor',
    `The chapter changed after your read (updatedAt ${chapter.updatedAt}, you sent ${expectedUpdatedAt}). ` +
      'Read it again with list_chapters, merge your change into what is there now, and send it with the new updatedAt.',
  );
}
