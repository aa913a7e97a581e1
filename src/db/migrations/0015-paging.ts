import { type Kysely, PostgresAdapter, sql } from 'kysely';
import { nameSortKey } from '../../shared/text.ts';
import type { Database } from '../tables.ts';

/**
 * Indexes that let every paged list read one page by keyset (filter columns, then the sort columns
 * to the unique last one), and the places' name as people sort it, which list_facilities pages by.
 */
export async function up(db: Kysely<Database>): Promise<void> {
  await db.schema
    .createIndex('spots_guide_page')
    .on('spots')
    .columns(['guide_id', 'order_key', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('spots_guide_area_page')
    .on('spots')
    .columns(['guide_id', 'area_id', 'order_key', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('chapters_guide_page')
    .on('chapters')
    .columns(['guide_id', 'order_key', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('itineraries_guide_page')
    .on('itineraries')
    .columns(['guide_id', 'order_key', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('media_guide_page')
    .on('media')
    .columns(['guide_id', 'kind', 'position', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('routes_guide_page')
    .on('routes')
    .columns(['guide_id', 'kind', 'position', 'id'])
    .execute();
  await db.schema.createIndex('guides_creator_page').on('guides').columns(['creator_id', 'updated_at', 'id']).execute();
  await db.schema
    .alterTable('facilities')
    .addColumn('name_key', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  const places = await db.selectFrom('facilities').select(['id', 'name']).execute();
  for (const { id, name } of places) {
    await db
      .updateTable('facilities')
      .set({ name_key: nameSortKey(name) })
      .where('id', '=', id)
      .execute();
  }
  // Byte order on both stores: PostgreSQL would otherwise sort by the database's locale.
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`alter table facilities alter column name_key type text collate "C"`.execute(db);
  }
  await db.schema
    .createIndex('facilities_guide_page')
    .on('facilities')
    .columns(['guide_id', 'name_key', 'id'])
    .execute();
}
