import { LRUCache } from 'lru-cache';
import { newId } from '../../core/ids.ts';
import { ScopedStore } from '../../core/stores.ts';
import { directReaders } from '../../db/database.ts';
import { prepared } from '../../db/prepared.ts';
import type { Snapshot } from './snapshot.ts';

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

/** Releases are written once and never changed; all SQL about them lives here. */
export class ReleasesStore extends ScopedStore {
  /** The newest release of a guide without its content: enough to tell whether anything changed. */
  async latestInfo(guideId: string): Promise<ReleaseInfo | undefined> {
    const row = await this.db
      .selectFrom('releases')
      .select(['number', 'created_at', 'key_id', 'content_hash'])
      .where('guide_id', '=', guideId)
      .orderBy('number', 'desc')
      .limit(1)
      .executeTakeFirst();
    return (
      row && {
        number: Number(row.number),
        publishedAt: Number(row.created_at),
        keyId: row.key_id,
        contentHash: row.content_hash,
      }
    );
  }

  /** What buyers see of a guide: its newest release, or undefined when it was never published. */
  async current(guideId: string): Promise<Release | undefined> {
    const row = await this.db
      .selectFrom('releases')
      .select(['number', 'created_at', 'key_id', 'content_hash', 'snapshot'])
      .where('guide_id', '=', guideId)
      .orderBy('number', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      number: Number(row.number),
      publishedAt: Number(row.created_at),
      keyId: row.key_id,
      contentHash: row.content_hash,
      snapshot: JSON.parse(row.snapshot) as Snapshot,
    };
  }

  /** Writes the next release; the caller holds the guide's lock, so the number cannot be taken twice. */
  async insert(guideId: string, snapshot: string, contentHash: string, keyId: string | null): Promise<ReleaseInfo> {
    const latest = await this.latestInfo(guideId);
    const number = (latest?.number ?? 0) + 1;
    const now = this.clock.now();
    await this.db
      .insertInto('releases')
      .values({
        id: newId('rel'),
        guide_id: guideId,
        number,
        content_hash: contentHash,
        snapshot,
        key_id: keyId,
        created_at: now,
      })
      .execute();
    return { number, publishedAt: now, keyId, contentHash };
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
    const [row] = await this.guideAtAddressRows(creatorSlug, guideSlug);
    return (
      row && {
        guideId: row.id,
        status: row.status,
        releaseNumber: row.release_number === null ? null : Number(row.release_number),
      }
    );
  }

  /**
   * The embedded store skips the query while no connection of any process has committed since it
   * last answered for this address (the WAL-index stamp, as guide views do): the page is asked for
   * far more often than anything changes.
   */
  private async guideAtAddressRows(creatorSlug: string, guideSlug: string): Promise<AddressRow[]> {
    const key = `${creatorSlug}/${guideSlug}`;
    const stamp = directReaders.get(this.db)?.commitStamp();
    if (stamp !== undefined) {
      const known = addressesAnswered.get(key);
      if (known && known.db === this.db && known.stamp === stamp) return known.rows;
    }
    const rows = await guideAtAddress(this.db, creatorSlug, guideSlug);
    if (stamp !== undefined) addressesAnswered.set(key, { db: this.db, stamp, rows });
    return rows;
  }
}

interface AddressRow {
  id: string;
  status: string;
  release_number: number | null;
}

/** What the query answered per address, with the commit stamp it was read under (embedded store only). */
const addressesAnswered = new LRUCache<string, { db: object; stamp: string; rows: AddressRow[] }>({ max: 10_000 });

const guideAtAddress = prepared<AddressRow>('guide at a sales-page address', (db) =>
  db
    .selectFrom('guides')
    .innerJoin('creators', 'creators.id', 'guides.creator_id')
    .select((eb) => [
      'guides.id',
      'guides.status',
      eb
        .selectFrom('releases')
        .select((r) => r.fn.max('releases.number').as('n'))
        .whereRef('releases.guide_id', '=', 'guides.id')
        .as('release_number'),
    ])
    .where('creators.slug', '=', '')
    .where('guides.slug', '=', ''),
);
