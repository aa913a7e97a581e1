import type { Kysely } from 'kysely';

/** Releases: immutable snapshots per guide, numbered; deleting a guide takes them along. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('releases')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('guide_id', 'text', (c) => c.notNull().references('guides.id').onDelete('cascade'))
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('content_hash', 'text', (c) => c.notNull())
    .addColumn('snapshot', 'text', (c) => c.notNull())
    .addColumn('key_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  // Two publishes that somehow raced past the guide lock could not both take one number.
  await db.schema
    .createIndex('releases_guide_number')
    .on('releases')
    .columns(['guide_id', 'number'])
    .unique()
    .execute();
}
