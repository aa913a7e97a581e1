import type { Kysely } from 'kysely';

/**
 * Preview links with an id the studio lists them by and the credential that made them (an API key's
 * id or an assistant's grant id), so that revoking it ends them. Links made before this version
 * named no maker and could not be ended that way: they go with the upgrade (they lasted an hour).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('preview_links').execute();
  await db.schema
    .createTable('preview_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('guide_id', 'text', (c) => c.notNull().references('guides.id').onDelete('cascade'))
    .addColumn('creator_id', 'text', (c) => c.notNull().references('creators.id').onDelete('cascade'))
    .addColumn('made_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('preview_links_expiry').on('preview_links').column('expires_at').execute();
  await db.schema.createIndex('preview_links_guide').on('preview_links').column('guide_id').execute();
}
