import { type Kysely, sql } from 'kysely';

/** Spots and custom spot properties. Sub-objects (pins, links, fees…) are JSON text. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('spots')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('guide_id', 'text', (c) => c.notNull().references('guides.id').onDelete('cascade'))
    .addColumn('spot_key', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('lat', sql`double precision`)
    .addColumn('lon', sql`double precision`)
    .addColumn('time_zone', 'text')
    .addColumn('pins', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('map_links', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('links', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('status', 'text')
    .addColumn('fees', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('schedule', 'text')
    .addColumn('hours', 'text')
    .addColumn('sources', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('area_id', 'text')
    .addColumn('archived', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('custom_values', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('custom_notes', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('review_notes', 'text')
    .addColumn('facts_checked_on', 'text')
    .addColumn('review_by', 'text')
    .addColumn('order_key', sql`double precision`, (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('spots_guide_key', ['guide_id', 'spot_key'])
    .execute();
  await db.schema.createIndex('spots_guide_order').on('spots').columns(['guide_id', 'order_key']).execute();

  await db.schema
    .createTable('property_defs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('guide_id', 'text', (c) => c.notNull().references('guides.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('order_key', sql`double precision`, (c) => c.notNull())
    .addColumn('required', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('filterable', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('placeholder', 'text')
    .addColumn('num_unit', 'text')
    .addColumn('options', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('archived', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('schema_version', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('property_defs_guide_key', ['guide_id', 'key'])
    .execute();
}
