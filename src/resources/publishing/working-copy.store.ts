import { type RawBuilder, sql } from 'kysely';
import type { HistoryTables } from '../../core/history.ts';
import { ScopedStore, type StoreScope } from '../../core/stores.ts';
import { holdingValues } from '../../db/held-values.ts';
import { type TrackedTable, trackedTables } from '../../db/history-triggers.ts';
import type { Dialect } from '../../db/store-interface.ts';

/** One row as the history keeps rows: a plain JSON object of its columns. */
export type Row = Record<string, unknown>;

/** A table's rows by their key's JSON text, each row as its JSON text (WorkingCopyStore.keyedRows). */
export type KeyedRows = Map<string, string>;

/**
 * A table's rows in an image kept a row a line: by their key's JSON text, each row's JSON text as
 * the UTF-8 bytes it is kept in. A row is decoded only when it differs from the row now: the bytes
 * are compared as they are (WorkingCopyStore.differingRows).
 */
export type ImageRows = Map<string, Uint8Array>;

/**
 * The raw rows of a guide's working copy: every table the history tracks (the same discovery its
 * triggers use), each read whole in one statement as the triggers write a row (to_jsonb in
 * PostgreSQL, json_object in SQLite), so a release's image, the rows now and a change's
 * before-images compare and put back alike.
 */
export class WorkingCopyStore extends ScopedStore {
  private readonly declared: HistoryTables;

  constructor(scope: StoreScope, declared: HistoryTables) {
    super(scope);
    this.declared = declared;
  }

  /** The tracked tables, parents before the tables whose foreign keys point at them. */
  async tables(): Promise<TrackedTable[]> {
    return parentsFirst(await trackedTables(this.db, this.dialect, this.declared));
  }

  /**
   * Each table's rows of the guide by key, each key and row as JSON text, in key order: what a
   * publish keeps as the release's image (image-format.ts). The same statement writes them now as at
   * the publish, so a row unchanged since is the same text (differingRows).
   */
  async keyedRows(tables: readonly TrackedTable[], guideId: string): Promise<Map<string, KeyedRows>> {
    const out = new Map<string, KeyedRows>();
    for (const table of tables) {
      const query = this.rowsQuery(tables, table, guideId, (row) => row, sql`order by ${keysOf(table)}`);
      if (query === undefined) continue;
      const { rows } = await query.execute(this.db);
      out.set(table.name, new Map(rows.map(({ k, r }) => [k, r])));
    }
    return out;
  }

  /**
   * The guide's rows of one table against a release's image of it, by key: a row's text where it
   * differs from the image's row or the image lacks it, null where the two are the same bytes. On
   * the embedded store SQLite compares each row with the image's, held for the statement
   * (db/held-values.ts), so only the rows that differ come out into the heap; PostgreSQL's come over
   * the connection all the same and are compared here. Undefined for a table not the guide's.
   */
  async differingRows(
    tables: readonly TrackedTable[],
    table: TrackedTable,
    guideId: string,
    image: ImageRows,
  ): Promise<Map<string, string | null> | undefined> {
    if (this.dialect === 'postgres') {
      const query = this.rowsQuery(tables, table, guideId, (row) => row);
      if (query === undefined) return undefined;
      const { rows } = await query.execute(this.db);
      return new Map(rows.map(({ k, r }) => [k, sameBytes(image.get(k), r) ? null : r]));
    }
    return holdingValues(image, async (token) => {
      const compared = (row: RawBuilder<unknown>) =>
        sql`case when cast(${row} as blob) = held_value(${token}, ${keyJson(table, this.dialect)}) then null else ${row} end`;
      const query = this.rowsQuery(tables, table, guideId, compared);
      if (query === undefined) return undefined;
      const { rows } = await query.execute(this.db);
      return new Map(rows.map(({ k, r }) => [k, r]));
    });
  }

  /**
   * The statement reading a table's rows of the guide as `{ k, r }`: each key and row as JSON text,
   * written as the history's triggers write a row (to_jsonb in PostgreSQL, json_object in SQLite),
   * the row passed through `select` first.
   */
  private rowsQuery(
    tables: readonly TrackedTable[],
    table: TrackedTable,
    guideId: string,
    select: (row: RawBuilder<unknown>) => RawBuilder<unknown>,
    then: RawBuilder<unknown> = sql``,
  ) {
    const filter = guideFilter(table, new Map(tables.map((t) => [t.name, t])), guideId);
    if (filter === undefined) return undefined;
    const row =
      this.dialect === 'postgres'
        ? sql`to_jsonb(t)::text`
        : sql`json_object(${sql.join(table.columns.map((c) => sql`${sql.lit(c)}, ${sql.ref(c)}`))})`;
    return sql<{ k: string; r: string }>`select ${keyJson(table, this.dialect)} as k, ${select(row)} as r
      from ${sql.table(table.name)} t where ${filter} ${then}`;
  }
}

const keysOf = (table: TrackedTable) => sql.join(table.keyColumns.map((c) => sql.ref(c)));

/** A row's key as JSON text, as an image keeps it. */
function keyJson(table: TrackedTable, dialect: Dialect): RawBuilder<unknown> {
  return dialect === 'postgres' ? sql`json_build_array(${keysOf(table)})::text` : sql`json_array(${keysOf(table)})`;
}

/** Whether a row's text is the same as the bytes an image kept of it. */
function sameBytes(kept: Uint8Array | undefined, text: string): boolean {
  return kept !== undefined && kept.byteLength === Buffer.byteLength(text) && Buffer.from(text).equals(kept);
}

/**
 * Which rows of a table are the guide's: `guides` by id, a table with `guide_id` by it, any other
 * through a foreign key to a table that is (one in its primary key first: never null).
 */
function guideFilter(
  table: TrackedTable,
  byName: ReadonlyMap<string, TrackedTable>,
  guideId: string,
  depth = 0,
): RawBuilder<unknown> | undefined {
  if (table.name === 'guides') return sql`${sql.ref('id')} = ${guideId}`;
  if (table.columns.includes('guide_id')) return sql`${sql.ref('guide_id')} = ${guideId}`;
  if (depth > 8) return undefined;
  const inKey = (column: string) => (table.keyColumns.includes(column) ? 0 : 1);
  for (const fk of [...table.references].sort((a, b) => inKey(a.column) - inKey(b.column))) {
    const parent = byName.get(fk.table);
    const inner = parent && parent !== table ? guideFilter(parent, byName, guideId, depth + 1) : undefined;
    if (inner === undefined || parent === undefined) continue;
    return sql`${sql.ref(fk.column)} in (select ${sql.ref(fk.targetColumn)} from ${sql.table(parent.name)} where ${inner})`;
  }
  return undefined;
}

/** Tables ordered so that every table comes after the tables it references (a cycle keeps its order). */
function parentsFirst(tables: readonly TrackedTable[]): TrackedTable[] {
  const byName = new Map(tables.map((t) => [t.name, t]));
  const ordered: TrackedTable[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (table: TrackedTable) => {
    if (state.has(table.name)) return;
    state.set(table.name, 'visiting');
    for (const fk of table.references) {
      const parent = byName.get(fk.table);
      if (parent && parent !== table) visit(parent);
    }
    state.set(table.name, 'done');
    ordered.push(table);
  };
  for (const table of tables) visit(table);
  return ordered;
}
