import type { ExpressionBuilder } from 'kysely';
import { newId } from '../../core/new-id.ts';
import { ScopedStore, type StoreScope } from '../../core/stores.ts';
import type { Database } from '../../db/tables.ts';
import { mediaKeysInJson } from '../media/index.ts';
import type { ReleaseAddressCache } from './release-addresses.ts';
import type { RowHashes, SerializedSnapshot, Snapshot } from './snapshot.ts';

/** A release as the store reads it back, without its snapshot. */
export interface ReleaseInfo {
  number: number;
  publishedAt: number;
  keyId: string | null;
  contentHash: string;
}

export interface Release extends ReleaseInfo {
  snapshot: Snapshot;
}

/** A release with the hash of each of its rows: what a publish compares the working copy with. */
export interface HashedRelease extends ReleaseInfo {
  rowHashes: RowHashes;
}

const INFO = ['number', 'created_at', 'key_id', 'content_hash'] as const;

/** Rows of release_files written per statement: far under either dialect's parameter limit. */
const KEYS_PER_STATEMENT = 500;

function infoOf(row: { number: number; created_at: number; key_id: string | null; content_hash: string }): ReleaseInfo {
  return {
    number: Number(row.number),
    publishedAt: Number(row.created_at),
    keyId: row.key_id,
    contentHash: row.content_hash,
  };
}

/** Releases are written once and never changed, only deleted past RELEASES_KEPT; all SQL about them lives here. */
export class ReleasesStore extends ScopedStore {
  /** The app's guides at sales-page addresses (`Caches.releaseAddresses`). */
  private readonly addresses: ReleaseAddressCache;

  constructor(scope: StoreScope, addresses: ReleaseAddressCache) {
    super(scope);
    this.addresses = addresses;
  }

  /** The newest release of a guide, of these columns: the index on (guide_id, number) finds it. */
  private newest<C extends 'snapshot' | 'row_hashes' | 'sales_page'>(guideId: string, extra: readonly C[]) {
    return this.db
      .selectFrom('releases')
      .select([...INFO, ...extra])
      .where('guide_id', '=', guideId)
      .orderBy('number', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /** The newest release of a guide without its content: enough to tell whether anything changed. */
  async latestInfo(guideId: string): Promise<ReleaseInfo | undefined> {
    const row = await this.newest(guideId, []);
    return row && infoOf(row);
  }

  /** The newest release with its rows' hashes, without reading its snapshot. */
  async latestHashes(guideId: string): Promise<HashedRelease | undefined> {
    const row = await this.newest(guideId, ['row_hashes']);
    return row && { ...infoOf(row), rowHashes: JSON.parse(row.row_hashes) as RowHashes };
  }

  /** What buyers see of a guide: its newest release, or undefined when it was never published. */
  async current(guideId: string): Promise<Release | undefined> {
    const row = await this.newest(guideId, ['snapshot']);
    return row && { ...infoOf(row), snapshot: JSON.parse(row.snapshot) as Snapshot };
  }

  /**
   * The sales page buyers see (the current release's), read from its own column without the
   * snapshot; null when the release has none or the guide was never published.
   */
  async currentSalesPage(guideId: string): Promise<unknown> {
    const row = await this.newest(guideId, ['sales_page']);
    return row?.sales_page ? JSON.parse(row.sales_page) : null;
  }

  /** Writes the next release; the caller holds the guide's lock, so the number cannot be taken twice. */
  async insert(guideId: string, snapshot: SerializedSnapshot, keyId: string | null): Promise<ReleaseInfo> {
    // Only the number, which the index on (guide_id, number) holds: the row and its snapshot are not read.
    const latest = await this.db
      .selectFrom('releases')
      .select('number')
      .where('guide_id', '=', guideId)
      .orderBy('number', 'desc')
      .limit(1)
      .executeTakeFirst();
    const number = Number(latest?.number ?? 0) + 1;
    const now = this.clock.now();
    const id = newId('rel');
    await this.db
      .insertInto('releases')
      .values({
        id,
        guide_id: guideId,
        number,
        content_hash: snapshot.hash,
        snapshot: snapshot.text,
        row_hashes: JSON.stringify(snapshot.rowHashes),
        sales_page: snapshot.salesPage === 'null' ? null : snapshot.salesPage,
        key_id: keyId,
        created_at: now,
      })
      .execute();
    const keys = mediaKeysInJson(snapshot.text);
    for (let at = 0; at < keys.length; at += KEYS_PER_STATEMENT) {
      await this.db
        .insertInto('release_files')
        .values(
          keys.slice(at, at + KEYS_PER_STATEMENT).map((key) => ({ release_id: id, guide_id: guideId, blob_key: key })),
        )
        .execute();
    }
    return { number, publishedAt: now, keyId, contentHash: snapshot.hash };
  }

  /**
   * Deletes every guide's releases but its newest `kept` (RELEASES_KEPT), so never the live one,
   * with the files each names (release_files); the rows that hang on a release go with it by their
   * foreign keys. One transaction: a release never stands without the record of its files, which
   * keeps them from the sweep. Answers how many releases went.
   */
  async dropAllButNewest(kept: number): Promise<number> {
    if (!Number.isInteger(kept) || kept < 1)
      throw new Error(`releases kept must be a whole number from 1, not ${kept}`);
    return this.db.transaction().execute(async (trx) => {
      const beyond = (eb: ExpressionBuilder<Database, 'releases'>) =>
        eb(
          'releases.number',
          '<=',
          eb(
            eb
              .selectFrom('releases as newer')
              .select((n) => n.fn.max('newer.number').as('n'))
              .whereRef('newer.guide_id', '=', 'releases.guide_id'),
            '-',
            kept,
          ),
        );
      await trx
        .deleteFrom('release_files')
        .where('release_id', 'in', (eb) => eb.selectFrom('releases').select('releases.id').where(beyond))
        .execute();
      const result = await trx.deleteFrom('releases').where(beyond).executeTakeFirst();
      return Number(result.numDeletedRows);
    });
  }

  /**
   * The guide at a sales-page address (creator slug, guide slug): its id, its status and the
   * number of its newest release (null when never published). One indexed query, compiled once:
   * the buyers' page asks it on every request.
   */
  async atAddress(
    creatorSlug: string,
    guideSlug: string,
  ): Promise<{ guideId: string; status: string; releaseNumber: number | null } | undefined> {
    const [row] = await this.addresses.guideAt(this.db, creatorSlug, guideSlug);
    return (
      row && {
        guideId: row.id,
        status: row.status,
        releaseNumber: row.release_number === null ? null : Number(row.release_number),
      }
    );
  }
}
