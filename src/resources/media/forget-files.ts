import type { OperationContext } from '../../core/operation.ts';
import { deleteBlobs } from './blob-store.ts';

/**
 * Files a row of the working copy stopped naming (a deleted photo, a replaced thumbnail). Each goes
 * once the write commits, unless a release names it: a release is immutable, and buyers keep
 * seeing its files as long as it exists. Asked inside the write, which holds the guide's lock, so
 * no publish of the guide can start naming them before the commit.
 */
export async function forgetFiles(ctx: OperationContext, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  const shown = await ctx.stores.releases.namedFiles(keys);
  const unnamed = keys.filter((key) => !shown.has(key));
  if (unnamed.length > 0) ctx.afterCommit(() => deleteBlobs(ctx.services.blobs, unnamed));
}
