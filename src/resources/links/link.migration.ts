import type { Kysely } from 'kysely';

/** The last check and the verified mark of each link a guide holds. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('link_checks')
    .addColumn('guide_id', 'text', (c) => c.notNull().references('guides.id').onDelete('cascade'))
    .addColumn('url_key', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('status', 'text')
    .addColumn('http_status', 'integer')
    .addColumn('final_url', 'text')
    .addColumn('error', 'text')
    .addColumn('checked_at', 'bigint')
    .addColumn('verified_at', 'bigint')
    .addPrimaryKeyConstraint('link_checks_pk', ['guide_id', 'url_key'])
    .execute();
}
