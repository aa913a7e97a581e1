import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * The history written with fewer pages a write (docs/decisions/history.md, What a write pays): the
 * B-trees each write adds to went from eight to four on the embedded store, the history kept.
 * - `change_rows_record` goes (both stores): every row a write touched added an entry at its
 *   record's place in it, a page a record; a change's rows are found by its id, and the guide's
 *   changes are few enough to look through for a record's.
 * - `changes_at` goes (both stores): retention finds a guide's old entries through (guide, seq),
 *   in which their times go up (ChangesStore.dropBefore), and no write pays a page for it.
 * - `change_current` goes (both stores): the embedded store names the open change in a table of
 *   the connection's own (TEMP, made at every open with the triggers), written to no file;
 *   PostgreSQL never used it.
 * - Embedded store: `changes` is kept in the order of (guide, seq), WITHOUT ROWID, with its id
 *   unique beside it: two B-trees where there were three (the rows, the id, the guide's order).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('change_rows_record').execute();
  await db.schema.dropIndex('changes_at').ifExists().execute();
  await db.schema.dropTable('change_current').execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  // Dropping `changes` with foreign keys on would delete every change_rows row by cascade, and
  // the switch is read only outside a transaction (SQLite runs migrations outside one).
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      // Indexes and triggers other migrations put on `changes` (retention's `changes_at`…) are made again.
      const { rows: others } = await sql<{ sql: string }>`
        select sql from sqlite_master where tbl_name = 'changes' and type in ('index', 'trigger') and sql is not null`.execute(
        trx,
      );
      await sql`
        create table changes_by_guide (
          id text not null,
          guide_id text not null references guides (id) on delete cascade,
          seq bigint not null,
          at bigint not null,
          operation text not null,
          by_id text,
          undone_by text,
          constraint changes_guide_seq primary key (guide_id, seq),
          constraint changes_id unique (id)
        ) without rowid`.execute(trx);
      await sql`
        insert into changes_by_guide (id, guide_id, seq, at, operation, by_id, undone_by)
        select id, guide_id, seq, at, operation, by_id, undone_by from changes`.execute(trx);
      await sql`drop table changes`.execute(trx);
      await sql`alter table changes_by_guide rename to changes`.execute(trx);
      for (const { sql: statement } of others) await sql.raw(statement).execute(trx);
      const { rows: broken } = await sql`pragma foreign_key_check`.execute(trx);
      if (broken.length > 0)
        throw new Error(`history: ${broken.length} rows lost their reference: ${JSON.stringify(broken[0])}`);
    });
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}
