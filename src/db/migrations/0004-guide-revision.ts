import type { Kysely } from 'kysely';

/**
 * A counter bumped by every write to a guide or its contents, so a guide record built once can
 * be served again while the counter stands still (timestamps cannot tell two writes in one ms apart).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('guides')
    .addColumn('revision', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
