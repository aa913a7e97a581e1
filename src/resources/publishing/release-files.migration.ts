import { type Kysely, sql } from 'kysely';
import { mediaKeysInJson } from '../media/index.ts';

/** The files each release names, indexed by key: a delete asks whether any release still shows a file. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('release_files')
    .addColumn('release_id', 'text', (c) => c.notNull())
    .addColumn('guide_id', 'text', (c) => c.notNull())
    .addColumn('blob_key', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('release_files_pk', ['release_id', 'blob_key'])
    .execute();
  await db.schema.createIndex('release_files_by_key').on('release_files').column('blob_key').execute();
  // Releases written before: one at a time, so memory stays bounded by the largest snapshot.
  const { rows } = await sql<{ id: string }>`select id from releases`.execute(db);
  for (const { id } of rows) {
    const {
      rows: [release],
    } = await sql<{
      guide_id: string;
      snapshot: string;
    }>`select guide_id, snapshot from releases where id = ${id}`.execute(db);
    if (!release) continue;
    for (const key of mediaKeysInJson(release.snapshot)) {
      await sql`insert into release_files (release_id, guide_id, blob_key) values (${id}, ${release.guide_id}, ${key})`.execute(
        db,
      );
    }
  }
}
