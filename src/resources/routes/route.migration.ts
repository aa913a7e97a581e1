import { type Kysely, sql } from 'kysely';

/**
 * Routes and hikes with their links to spots and places. The links cascade from both ends, so
 * deleting a spot, a place, a route or a guide takes its links with it.
 */
async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('routes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('guide_id', 'text', (c) => c.notNull().references('guides.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('record', 'text', (c) => c.notNull())
    .addColumn('track', 'text')
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('routes_guide').on('routes').columns(['guide_id', 'position']).execute();

  await db.schema
    .createTable('route_spots')
    .addColumn('route_id', 'text', (c) => c.notNull().references('routes.id').onDelete('cascade'))
    .addColumn('spot_id', 'text', (c) => c.notNull().references('spots.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('route_spots_pk', ['route_id', 'spot_id'])
    .execute();
  await db.schema.createIndex('route_spots_spot').on('route_spots').column('spot_id').execute();

  await db.schema
    .createTable('route_facilities')
    .addColumn('route_id', 'text', (c) => c.notNull().references('routes.id').onDelete('cascade'))
    .addColumn('facility_id', 'text', (c) => c.notNull().references('facilities.id').onDelete('cascade'))
    .addColumn('order_key', sql`double precision`, (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('route_facilities_pk', ['route_id', 'facility_id'])
    .execute();
  await db.schema.createIndex('route_facilities_facility').on('route_facilities').column('facility_id').execute();
}

export const routeMigrations = { '0008-routes': { up } };
