import { ApiError } from '../../core/errors.ts';
import type { OperationContext } from '../../core/operation.ts';
import type { OwnedChapter } from './chapter.store.ts';

/**
 * The caller's chapter with its guide opened first (locked, in a write), then read again, so a
 * write never lands on a chapter changed by a call that committed in between.
 */
export async function openChapter(ctx: OperationContext, chapterId: string): Promise<OwnedChapter> {
  const { guideId } = await ctx.stores.chapters.requireOwned(ctx.principal.creatorId, chapterId);
  await ctx.guide(guideId);
  return ctx.stores.chapters.require(chapterId);
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
