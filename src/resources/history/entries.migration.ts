import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * The embedded store keeps a guide's history in one B-tree, `history_entries`, where a write added
 * to three (docs/decisions/history.md, What a write pays): each change is an entry keyed by its id
 * with an empty table and row key, and the rows it touched follow it under the same id, on the same
 * page. A partial index on the changes' entries alone keeps each guide's order (guide, seq). The
 * changes' own tree and the unique index on their ids went, and with them two of the four pages
 * history added to a commit, and the deferred foreign key a change's rows checked at every commit.
 *
 * `changes` and `change_rows` are views of it, with the columns the tables had: every reader reads
 * them as before, on both stores, and writes through them reach the entries (INSTEAD OF
 * triggers). The write path writes the entries directly (history-triggers.ts, core/history.ts).
 * PostgreSQL keeps its tables: a heap appends without splitting, and its change rows have no index
 * of their own to pay for.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  // Dropping `changes` with foreign keys on would run its cascade, and the switch is read only
  // outside a transaction (SQLite runs migrations outside one).
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      await sql`
        create table history_entries (
          change_id text not null,
          -- '' for the change's own entry; else the table of the row it touched.
          tbl text not null,
          row_key text not null,
          ord integer not null,
          kind text,
          record_id text,
          before text,
          gone integer not null default 0,
          guide_id text references guides (id) on delete cascade,
          seq bigint,
          at bigint,
          operation text,
          by_id text,
          undone_by text,
          constraint history_entries_key primary key (change_id, tbl, row_key),
          -- A change's entry names its guide and place (a write keeps it only while both are known:
          -- core/history.ts); a row's entry names its record.
          constraint history_entries_change check (tbl <> '' or
            (guide_id is not null and seq is not null and at is not null and operation is not null)),
          constraint history_entries_row check (tbl = '' or (kind is not null and record_id is not null))
        ) without rowid`.execute(trx);
      await sql`
        insert into history_entries (change_id, tbl, row_key, ord, guide_id, seq, at, operation, by_id, undone_by)
        select id, '', '', 0, guide_id, seq, at, operation, by_id, undone_by from changes`.execute(trx);
      await sql`
        insert into history_entries (change_id, tbl, row_key, ord, kind, record_id, before, gone)
        select change_id, tbl, row_key, ord, kind, record_id, before, gone from change_rows`.execute(trx);
      await sql`drop table change_rows`.execute(trx);
      await sql`drop table changes`.execute(trx);
      for (const statement of HISTORY_VIEWS) await sql.raw(statement).execute(trx);
      const { rows: broken } = await sql`pragma foreign_key_check`.execute(trx);
      if (broken.length > 0)
        throw new Error(`history: ${broken.length} rows lost their reference: ${JSON.stringify(broken[0])}`);
    });
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}

/**
 * The `changes` view of the entries and what its writes do, a change's entry being the one
 * `isChange` holds for: a test that begins with the column it reads, so `old.` can name the
 * removed entry's (first-row.migration.ts made them again with another test).
 */
export function changesView(isChange: string): string[] {
  return [
    `create view changes as
    select change_id as id, guide_id, seq, at, operation, by_id, undone_by from history_entries where ${isChange}`,
    // A change removed (retention, its guide deleted) takes its rows with it, as the foreign key did.
    `create trigger entries_change_removed after delete on history_entries when old.${isChange} begin
    delete from history_entries where change_id = old.change_id;
  end`,
    // A change written through the view has an entry of its own.
    `create trigger changes_insert instead of insert on changes begin
    insert into history_entries (change_id, tbl, row_key, ord, guide_id, seq, at, operation, by_id, undone_by)
    values (new.id, '', '', 0, new.guide_id, new.seq, new.at, new.operation, new.by_id, new.undone_by);
  end`,
    `create trigger changes_update instead of update on changes begin
    update history_entries set guide_id = new.guide_id, seq = new.seq, at = new.at, operation = new.operation,
      by_id = new.by_id, undone_by = new.undone_by
    where change_id = old.id and ${isChange};
  end`,
    `create trigger changes_delete instead of delete on changes begin
    delete from history_entries where change_id = old.id and ${isChange};
  end`,
  ];
}

/**
 * The indexes, the views and what their writes do. Trigger names stay clear of `history_`, the
 * prefix of the generated triggers that every start makes again and drops when stale.
 */
const HISTORY_VIEWS = [
  `create unique index changes_by_guide on history_entries (guide_id, seq) where tbl = ''`,
  // Written only by an undo: the changes an undo undid, found without reading every entry.
  `create index changes_undone on history_entries (undone_by) where undone_by is not null`,
  `create view change_rows as
    select change_id, tbl, row_key, ord, kind, record_id, before, gone from history_entries where tbl <> ''`,
  ...changesView("tbl = ''"),
  `create trigger change_rows_insert instead of insert on change_rows begin
    insert into history_entries (change_id, tbl, row_key, ord, kind, record_id, before, gone)
    values (new.change_id, new.tbl, new.row_key, new.ord, new.kind, new.record_id, new.before, coalesce(new.gone, 0));
  end`,
  `create trigger change_rows_update instead of update on change_rows begin
    update history_entries set ord = new.ord, kind = new.kind, record_id = new.record_id, before = new.before,
      gone = new.gone
    where change_id = old.change_id and tbl = old.tbl and row_key = old.row_key;
  end`,
  `create trigger change_rows_delete instead of delete on change_rows begin
    delete from history_entries where change_id = old.change_id and tbl = old.tbl and row_key = old.row_key;
  end`,
];
