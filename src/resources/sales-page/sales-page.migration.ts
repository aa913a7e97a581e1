import type { Kysely } from 'kysely';

/** The sales page draft, one row per guide, gone with its guide. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sales_pages')
    .addColumn('guide_id', 'text', (c) => c.primaryKey().references('guides.id').onDelete('cascade'))
    .addColumn('draft', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}
