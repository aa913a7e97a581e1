import type { Kysely } from 'kysely';
import type { Coordination } from '../../db/coordination.ts';
import type { Database } from '../../db/tables.ts';
import { type BlobStore, deleteBlobs } from './blob-store.ts';
import { keyOfMediaPath, keysOf, type StoredFiles } from './media-files.ts';
import type { Pruned } from './retention.ts';

/**
 * Files are written before the row that names them (uploads render and store in `prepare`, outside
 * the transaction), so only files older than any write can take are swept: an hour, six times the
 * longest a request may last (REQUEST_TIMEOUT_MS is at most 10 minutes). A younger file may belong
 * to a write that is about to commit, on this instance or another sharing the store; the same line
 * holds for temporary files, which a live write renames within seconds.
 */
export const ORPHAN_MIN_AGE_MS = 60 * 60 * 1000;

/** The photo files a row of each table names: a working copy's row and a history before-image of one alike. */
const FILES_NAMED_BY: Readonly<Record<string, (row: Readonly<Record<string, unknown>>) => string[]>> = {
  media: (row) => (typeof row.files === 'string' ? keysOf(JSON.parse(row.files) as StoredFiles) : []),
  guides: (row) => {
    const key = typeof row.thumbnail_url === 'string' ? keyOfMediaPath(row.thumbnail_url) : undefined;
    return key === undefined ? [] : [key];
  },
};

/** Before-images read per statement: memory stays bounded by a page, not by the history's size. */
const BEFORE_IMAGES_PER_PAGE = 1000;

/**
 * Every blob key a row names: photos and stored images, guide thumbnails, every release's files,
 * and every before-image the history keeps of those rows (an undo or redo puts such a row back, and
 * must not name a missing file: docs/decisions/history.md, Retention).
 */
async function namedKeys(db: Kysely<Database>): Promise<Set<string>> {
  const named = new Set<string>();
  const add = (table: string, row: Readonly<Record<string, unknown>>) => {
    for (const key of FILES_NAMED_BY[table]?.(row) ?? []) named.add(key);
  };
  for (const row of await db.selectFrom('media').select('files').execute()) add('media', row);
  for (const row of await db
    .selectFrom('guides')
    .select('thumbnail_url')
    .where('thumbnail_url', 'is not', null)
    .execute())
    add('guides', row);
  for (const row of await db.selectFrom('release_files').select('blob_key').distinct().execute())
    named.add(row.blob_key);
  // Paged in the rows' own key order: the only order both stores keep them in.
  for (let after: [string, string, string] | undefined; ; ) {
    let query = db
      .selectFrom('change_rows')
      .select(['change_id', 'tbl', 'row_key', 'before'])
      .where('tbl', 'in', Object.keys(FILES_NAMED_BY))
      .where('before', 'is not', null)
      .orderBy('change_id')
      .orderBy('tbl')
      .orderBy('row_key')
      .limit(BEFORE_IMAGES_PER_PAGE);
    if (after) {
      const [change, table, rowKey] = after;
      query = query.where((eb) => eb(eb.refTuple('change_id', 'tbl', 'row_key'), '>', eb.tuple(change, table, rowKey)));
    }
    const page = await query.execute();
    for (const row of page) add(row.tbl, JSON.parse(row.before as string) as Record<string, unknown>);
    const last = page[page.length - 1];
    if (page.length < BEFORE_IMAGES_PER_PAGE || !last) return named;
    after = [last.change_id, last.tbl, last.row_key];
  }
}

export interface SweepResult {
  /** Keys of the files removed. */
  removed: string[];
  /** Temporary files removed: what writes a crash cut short left (blob-store.ts, removeLeftovers). */
  leftovers: number;
  /** Files no row names (or temporary ones) but young enough to belong to a write in progress. */
  young: number;
  /** What retention removed first, when the sweep applied it (releases past RELEASES_KEPT, old history). */
  pruned?: Pruned;
}

/**
 * Removes the files that no row, release or kept history entry names, written before `before` (ms): what a crash
 * between a file's write and its row's commit left behind; and the temporary files of writes a crash
 * cut short, last changed before it. The files are listed before the rows are read, so a file whose
 * row commits in between is seen as named.
 */
export async function sweepOrphanFiles(db: Kysely<Database>, blobs: BlobStore, before: number): Promise<SweepResult> {
  const temporary = (await blobs.removeLeftovers?.(before)) ?? { removed: 0, young: 0 };
  const listed: { key: string; modifiedMs: number }[] = [];
  for await (const blob of blobs.list()) listed.push(blob);
  const named = await namedKeys(db);
  const orphans = listed.filter((blob) => !named.has(blob.key));
  const removed = orphans.filter((blob) => blob.modifiedMs < before).map((blob) => blob.key);
  await deleteBlobs(blobs, removed);
  return { removed, leftovers: temporary.removed, young: orphans.length - removed.length + temporary.young };
}

/** What a sweep that found another running answers instead of its result. */
export interface SweepSkipped {
  skipped: true;
  reason: string;
}

/**
 * One sweep, unless another runs now on any instance on the store or in the admin command line:
 * two at once would list every file twice and race to delete the same ones. `prune` (retention:
 * pruneRetention) runs first, under the same guard, so that the files only what it removed named
 * go in this very sweep, and two instances never prune at once either.
 */
export async function sweepOrphanFilesAlone(
  store: { db: Kysely<Database>; coordination: Pick<Coordination, 'exclusive'> },
  blobs: BlobStore,
  before: number,
  prune?: () => Promise<Pruned>,
): Promise<SweepResult | SweepSkipped> {
  const outcome = await store.coordination.exclusive('orphan sweep', async () => {
    const pruned = await prune?.();
    const result = await sweepOrphanFiles(store.db, blobs, before);
    return pruned === undefined ? result : { ...result, pruned };
  });
  return outcome.ran ? outcome.value : { skipped: true, reason: 'another sweep of this store is running now' };
}

/** Then every six hours: each reads every row's file names. */
const SWEEP_EVERY_MS = 6 * 60 * 60 * 1000;
/** After a sweep that left young files: once they are old enough, with a minute's margin. */
const YOUNG_AGAIN_MS = ORPHAN_MIN_AGE_MS + 60 * 1000;

/**
 * Sweeps in the background while the process runs: at start, so that what a crash of the previous
 * run left goes as soon as it is old enough, then on the schedule; a sweep that found files too young
 * to take (a crash minutes ago, or writes under way) comes back once they are old enough rather than
 * six hours later. Answers the function that stops it (a sweep under way finishes on its own:
 * shutdown does not wait for a slow bucket). File ages are the file system's (or the bucket's), so
 * they are compared with the system's time, not the injected clock.
 */
export function scheduleOrphanSweep(
  store: { db: Kysely<Database>; coordination: Pick<Coordination, 'exclusive'> },
  blobs: BlobStore,
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void },
  /** MEDIA_SWEEP_START_MS: not at once, so the start itself loads nothing for it (a bucket's SDK). */
  firstAfterMs: number,
  /** Retention, applied at each sweep before the files are listed. */
  prune?: () => Promise<Pruned>,
): () => void {
  let stopped = false;
  /** Sweeps once; answers when to sweep next. */
  const sweep = () =>
    sweepOrphanFilesAlone(store, blobs, Date.now() - ORPHAN_MIN_AGE_MS, prune).then(
      (result) => {
        if ('skipped' in result) {
          log.info({}, `no sweep of files no row names: ${result.reason}`);
          return SWEEP_EVERY_MS;
        }
        if (result.pruned && result.pruned.releases + result.pruned.changes > 0)
          log.info(result.pruned, 'removed releases and history entries past their retention');
        if (result.removed.length > 0 || result.leftovers > 0)
          log.info({ removed: result.removed.length, leftovers: result.leftovers }, 'removed files no row names');
        return result.young > 0 ? YOUNG_AGAIN_MS : SWEEP_EVERY_MS;
      },
      (err: unknown) => {
        if (!stopped) log.error({ err }, 'sweeping files no row names failed');
        return SWEEP_EVERY_MS;
      },
    );
  const later = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(() => void sweep().then(later), ms);
    timer.unref();
  };
  let timer: NodeJS.Timeout | undefined;
  later(firstAfterMs);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
