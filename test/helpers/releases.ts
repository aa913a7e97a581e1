import type { Harness } from './harness.ts';

/** The snapshot buyers read: the guide's newest release, parsed. */
export async function latestSnapshot(h: Harness, productId: string): Promise<any> {
  const release = await h.store.db
    .selectFrom('releases')
    .select('snapshot')
    .where('guide_id', '=', productId)
    .orderBy('number', 'desc')
    .executeTakeFirstOrThrow();
  return JSON.parse(release.snapshot);
}
