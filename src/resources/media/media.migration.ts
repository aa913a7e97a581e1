import { type Kysely, sql } from 'kysely';

/** Photos and stored images; their files live in the blob store, named by the `files` column. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('media')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('guide_id', 'text', (c) => c.notNull().references('guides.id').onDelete('cascade'))
    .addColumn('creator_id', 'text', (c) => c.notNull().references('creators.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    // A deleted spot leaves its photos in the guide, attached to nothing.
    .addColumn('spot_id', 'text', (c) => c.references('spots.id').onDelete('set null'))
    .addColumn('position', sql`double precision`, (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('bytes', 'integer', (c) => c.notNull())
    .addColumn('files', 'text', (c) => c.notNull())
    .addColumn('meta', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('media_guide_kind').on('media').columns(['guide_id', 'kind', 'position']).execute();
  await db.schema.createIndex('media_spot').on('media').column('spot_id').execute();
}
