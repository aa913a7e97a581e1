import type { Stores } from '../../core/stores.ts';
import { readGuideContents } from './guide-contents.ts';
import { releaseKinds, serializeSnapshot, snapshotRows } from './snapshot.ts';
import { type RecordDifference, sortDifferences } from './working-image.ts';

const nameIn = (row: unknown): string | null => {
  const name = (row as { name?: unknown } | undefined)?.name;
  return typeof name === 'string' ? name : null;
};

/**
 * How the working copy differs from a release that kept no working image (published before images
 * were kept): as far as its buyers' snapshot goes, comparing what buyers would see now with what
 * they saw then, row hash by row hash.
 */
export async function snapshotDifferences(
  stores: Stores,
  guide: { id: string; creatorId: string },
  releaseId: string,
): Promise<RecordDifference[]> {
  const release = await stores.releases.snapshotOf(releaseId);
  if (!release) return [];
  const rows = snapshotRows(await readGuideContents(stores, guide.id, guide.creatorId));
  const now = serializeSnapshot(rows).rowHashes;
  const then = release.rowHashes;
  const out: RecordDifference[] = [];
  if (now.guide !== then.guide) out.push({ kind: 'guide', id: guide.id, name: nameIn(rows.guide), change: 'changed' });
  if (now.salesPage !== then.salesPage) {
    const change = then.salesPage === null ? 'added' : now.salesPage === null ? 'removed' : 'changed';
    out.push({ kind: 'salesPage', id: guide.id, name: null, change });
  }
  for (const kind of releaseKinds) {
    const old = then.items?.[kind] ?? {};
    for (const [id, hash] of Object.entries(now.items[kind])) {
      if (!Object.hasOwn(old, id)) out.push({ kind, id, name: nameIn(rows.items[kind][id]), change: 'added' });
      else if (old[id] !== hash) out.push({ kind, id, name: nameIn(rows.items[kind][id]), change: 'changed' });
    }
    for (const id of Object.keys(old)) {
      if (!Object.hasOwn(now.items[kind], id)) {
        out.push({ kind, id, name: nameIn(release.snapshot.items?.[kind]?.[id]), change: 'removed' });
      }
    }
  }
  return sortDifferences(out);
}
