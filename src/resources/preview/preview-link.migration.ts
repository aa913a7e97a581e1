import type { Kysely } from 'kysely';

/** Preview links, gone with their guide. (Migration numbers 0020-0029 belong to the studio.) */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('preview_links')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('guide_id', 'text', (c) => c.notNull().references('guides.id').onDelete('cascade'))
    .addColumn('creator_id', 'text', (c) => c.notNull().references('creators.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('preview_links_expiry').on('preview_links').column('expires_at').execute();
}
