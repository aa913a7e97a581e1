import { type Kysely, sql } from 'kysely';

/** Areas list in the order they were made, even when two share a millisecond. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('areas')
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update areas set position = (select count(*) from areas earlier
    where earlier.guide_id = areas.guide_id
      and (earlier.created_at < areas.created_at or (earlier.created_at = areas.created_at and earlier.id <= areas.id)))`.execute(
    db,
  );
}
