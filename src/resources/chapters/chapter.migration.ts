import { type Kysely, sql } from 'kysely';

/** Chapters and collections, and their members (spots, or chapters shown as cards). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('chapters')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('guide_id', 'text', (c) => c.notNull().references('guides.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('slug', 'text')
    .addColumn('description', 'text')
    .addColumn('body', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('intro', 'text')
    .addColumn('pages', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('cover_storage_id', 'text')
    .addColumn('order_key', sql`double precision`, (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('chapters_guide_order').on('chapters').columns(['guide_id', 'order_key']).execute();
  // Both dialects let any number of rows hold a null slug under a unique index.
  await db.schema.createIndex('chapters_guide_slug').on('chapters').columns(['guide_id', 'slug']).unique().execute();

  await db.schema
    .createTable('chapter_members')
    .addColumn('chapter_id', 'text', (c) => c.notNull().references('chapters.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('spot_id', 'text', (c) => c.references('spots.id').onDelete('cascade'))
    .addColumn('member_chapter_id', 'text', (c) => c.references('chapters.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('chapter_members_pk', ['chapter_id', 'position'])
    .addCheckConstraint('chapter_members_one', sql`(spot_id is null) <> (member_chapter_id is null)`)
    .execute();
  await db.schema.createIndex('chapter_members_spot').on('chapter_members').column('spot_id').execute();
  await db.schema.createIndex('chapter_members_member').on('chapter_members').column('member_chapter_id').execute();
}
