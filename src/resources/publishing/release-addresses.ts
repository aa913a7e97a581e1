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

/** What the query answered per address, with the commit stamp it was read under (embedded store only). */
const answered = new LRUCache<string, { db: object; stamp: string; rows: AddressRow[] }>({ max: 10_000 });

/**
 * The guide at a sales-page address, in one indexed query compiled once. The embedded store skips
 * even that while no connection of any process has committed since it last answered for this
 * address (the WAL-index stamp, as guide views do): the page is asked for far more often than
 * anything changes.
 */
export async function guideAtAddress(
  db: Kysely<Database>,
  creatorSlug: string,
  guideSlug: string,
): Promise<AddressRow[]> {
  const key = `${creatorSlug}/${guideSlug}`;
  // Taken before the query, so that a commit landing in between moves the stamp for next time.
  const stamp = directReaders.get(db)?.commitStamp();
  if (stamp !== undefined) {
    const known = answered.get(key);
    if (known && known.db === db && known.stamp === stamp) return known.rows;
  }
  const rows = await query(db, creatorSlug, guideSlug);
  if (stamp !== undefined) answered.set(key, { db, stamp, rows });
  return rows;
}
