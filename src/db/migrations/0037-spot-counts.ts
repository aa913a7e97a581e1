import type { Kysely } from 'kysely';
import type { Database } from '../tables.ts';

/**
 * The count of a guide's spots that are not archived (every spot list's `total`, read again after
 * each write to the guide) from an index alone: with only (guide_id, order…) to go by, SQLite read
 * every spot's row to see `archived`, 15-22 ms of the event loop for 4,000 full spots.
 */
export async function up(db: Kysely<Database>): Promise<void> {
  await db.schema.createIndex('spots_guide_archived').on('spots').columns(['guide_id', 'archived']).execute();
}
