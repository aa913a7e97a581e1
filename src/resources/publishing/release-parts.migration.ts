import { type Kysely, sql } from 'kysely';
import { type Snapshot, serializeSnapshot } from './snapshot.ts';

/**
 * Each release keeps its rows' hashes and its sales page beside the snapshot, so a publish
 * compares hashes and get_sales_page reads the live page without parsing the whole snapshot.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('releases').addColumn('row_hashes', 'text').execute();
  await db.schema.alterTable('releases').addColumn('sales_page', 'text').execute();
  await fillReleaseParts(db);
}

/**
 * Gives releases written before those columns both, from their own snapshot: one release at a
 * time, so memory stays bounded by the largest snapshot.
 */
export async function fillReleaseParts(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ id: string }>`select id from releases where row_hashes is null`.execute(db);
  for (const { id } of rows) {
    const {
      rows: [release],
    } = await sql<{ snapshot: string }>`select snapshot from releases where id = ${id}`.execute(db);
    if (!release) continue;
    const parts = serializeSnapshot(JSON.parse(release.snapshot) as Snapshot);
    const salesPage = parts.salesPage === 'null' ? null : parts.salesPage;
    await sql`update releases set row_hashes = ${JSON.stringify(parts.rowHashes)}, sales_page = ${salesPage}
      where id = ${id}`.execute(db);
  }
}
