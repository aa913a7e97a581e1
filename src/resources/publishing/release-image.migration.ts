import { type Kysely, PostgresAdapter } from 'kysely';

/**
 * Each release keeps the working copy it was published from, whole and compressed, so that
 * restore_release can give it back exactly (the snapshot leaves out what buyers never see). It goes
 * with its release: whatever removes a release removes its image.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const binary = db.getExecutor().adapter instanceof PostgresAdapter ? 'bytea' : 'blob';
  await db.schema
    .createTable('release_images')
    .addColumn('release_id', 'text', (c) => c.primaryKey().references('releases.id').onDelete('cascade'))
    .addColumn('counts', 'text', (c) => c.notNull())
    .addColumn('image', binary, (c) => c.notNull())
    .execute();
}
