import { type Kysely, sql } from 'kysely';

/** Itineraries: deleting the guide takes them along; deleting their cover photo clears it. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('itineraries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('guide_id', 'text', (c) => c.notNull().references('guides.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('body', 'text')
    .addColumn('cover_media_id', 'text', (c) => c.references('media.id').onDelete('set null'))
    .addColumn('travel_mode', 'text')
    .addColumn('season', 'text')
    .addColumn('starts_at', 'text')
    .addColumn('ends_at', 'text')
    .addColumn('days', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('order_key', sql`double precision`, (c) => c.notNull())
    .addColumn('archived', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('itineraries_guide_order').on('itineraries').columns(['guide_id', 'order_key']).execute();
  await db.schema.createIndex('itineraries_cover').on('itineraries').column('cover_media_id').execute();
}
