import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * A change's rows kept in one B-tree, where each write added to two (docs/decisions/history.md,
 * What a write pays). `change_rows` was numbered by an id of its own, with (change, table, row key)
 * unique beside it: every row a write touched went into both. It is now kept by that key itself
 * (embedded store: WITHOUT ROWID), and the order a change touched its rows in, which an undo puts
 * back in reverse, is a column (`ord`, the row's place in its change). Change ids begin with their
 * time, so a write's rows go at the end of the tree, on the page the last write wrote.
 * PostgreSQL keeps its rows in a heap: its numbering index goes, and the numbers stay as `ord`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`alter table change_rows drop constraint change_rows_pkey`.execute(db);
    await sql`alter table change_rows rename column id to ord`.execute(db);
    return;
  }
  await db.transaction().execute(async (trx) => {
    await sql`
      create table change_rows_by_change (
        change_id text not null,
        tbl text not null,
        row_key text not null,
        ord integer not null,
        kind text not null,
        record_id text not null,
        before text,
        gone integer not null default 0,
        constraint change_rows_row primary key (change_id, tbl, row_key),
        -- Deferred: the change's own row is written when it closes, after the rows it touched.
        constraint change_rows_change foreign key (change_id) references changes (id)
          on delete cascade deferrable initially deferred
      ) without rowid`.execute(trx);
    // The old numbers keep each change's order: they only ever went up.
    await sql`
      insert into change_rows_by_change (change_id, tbl, row_key, ord, kind, record_id, before, gone)
      select change_id, tbl, row_key, id, kind, record_id, before, gone from change_rows`.execute(trx);
    await sql`drop table change_rows`.execute(trx);
    await sql`alter table change_rows_by_change rename to change_rows`.execute(trx);
  });
}
