import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import { directReaders } from '../../db/database.ts';
import { prepared } from '../../db/prepared.ts';
import type { Database } from '../../db/tables.ts';

/** A guide at a sales-page address: its id, status and newest release number (null: never published). */
export interface AddressRow {
  id: string;
  status: string;
  release_number: number | null;
}

const query = prepared<AddressRow>('guide at a sales-page address', (db) =>
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

/**
 * The guide at a sales-page address, in one indexed query compiled once: one app's, on its one
 * store (`Caches.releaseAddresses`). The embedded store skips even that while no connection of any
 * process has committed since it last answered for this address (the WAL-index stamp, as guide
 * views do): the page is asked for far more often than anything changes.
 */
export class ReleaseAddressCache {
  /** What the query answered per address, with the commit stamp it was read under (embedded store only). */
  private readonly answered = new LRUCache<string, { stamp: string; rows: AddressRow[] }>({ max: 10_000 });

  async guideAt(db: Kysely<Database>, creatorSlug: string, guideSlug: string): Promise<AddressRow[]> {
    const key = `${creatorSlug}/${guideSlug}`;
    // Taken before the query, so that a commit landing in between moves the stamp for next time.
    const stamp = directReaders.get(db)?.commitStamp();
    if (stamp !== undefined) {
      const known = this.answered.get(key);
      if (known && known.stamp === stamp) return known.rows;
    }
    const rows = await query(db, creatorSlug, guideSlug);
    if (stamp !== undefined) this.answered.set(key, { stamp, rows });
    return rows;
  }
}
