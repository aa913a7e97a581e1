import type { Retention } from '../../config.ts';
import type { Stores } from '../../core/stores.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** What one pass of retention removed. */
export interface Pruned {
  releases: number;
  changes: number;
}

/**
 * Removes what the settings no longer keep: every guide's releases but its newest RELEASES_KEPT,
 * and history entries older than HISTORY_KEPT_DAYS (by the service's clock, which wrote them). The
 * sweep runs it before it lists files, so files only those named go in the same sweep.
 */
export async function pruneRetention(
  stores: Pick<Stores, 'releases' | 'changes'>,
  retention: Retention,
  now: number,
): Promise<Pruned> {
  const releases =
    retention.releasesKept === undefined ? 0 : await stores.releases.dropAllButNewest(retention.releasesKept);
  const changes = await stores.changes.dropBefore(now - retention.historyDays * DAY_MS);
  return { releases, changes };
}
