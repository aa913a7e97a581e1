import { type Kysely, sql } from 'kysely';

/** Areas (parks, islands, regions) and places (facilities) with their links to spots. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('areas')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('guide_id', 'text', (c) => c.notNull().references('guides.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('kind', 'text')
    .addColumn('note', 'text')
    .addColumn('season', 'text')
    .addColumn('rules', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('fees', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('links', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('status', 'text')
    .addColumn('sources', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('areas_guide').on('areas').column('guide_id').execute();
  await db.schema.createIndex('spots_area').on('spots').column('area_id').execute();

  await db.schema
    .createTable('facilities')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('guide_id', 'text', (c) => c.notNull().references('guides.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('type', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('record', 'text', (c) => c.notNull())
    .addColumn('lat', sql`double precision`)
    .addColumn('lon', sql`double precision`)
    .addColumn('inside_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('facilities_guide_name').on('facilities').columns(['guide_id', 'name']).execute();

  await db.schema
    .createTable('facility_spots')
    .addColumn('facility_id', 'text', (c) => c.notNull().references('facilities.id').onDelete('cascade'))
    .addColumn('spot_id', 'text', (c) => c.notNull().references('spots.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('facility_spots_pk', ['facility_id', 'spot_id'])
    .execute();
  await db.schema.createIndex('facility_spots_spot').on('facility_spots').column('spot_id').execute();
}
