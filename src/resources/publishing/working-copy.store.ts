import { type RawBuilder, sql } from 'kysely';
import type { HistoryTables } from '../../core/history.ts';
import { ScopedStore, type StoreScope } from '../../core/stores.ts';
import { type TrackedTable, trackedTables } from '../../db/history-triggers.ts';

/** One row as the history keeps rows: a plain JSON object of its columns. */
export type Row = Record<string, unknown>;

/** A table's rows by their key's JSON text, each row as its JSON text (WorkingCopyStore.keyedRows). */
export type KeyedRows = Map<string, string>;

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
   * Each table's rows of the guide by key, each key and row as JSON text, in key order: the form a
   * release's image keeps them in (image-format.ts), so a row unchanged since is the same text and
   * is never parsed. The same statement writes them now as at the publish.
   */
  async keyedRows(tables: readonly TrackedTable[], guideId: string): Promise<Map<string, KeyedRows>> {
    const byName = new Map(tables.map((t) => [t.name, t]));
    const out = new Map<string, KeyedRows>();
    for (const table of tables) {
      const filter = guideFilter(table, byName, guideId);
      if (filter === undefined) continue;
      const keys = sql.join(table.keyColumns.map((c) => sql.ref(c)));
      const query =
        this.dialect === 'postgres'
          ? sql<{ k: string; r: string }>`select json_build_array(${keys})::text as k, to_jsonb(t)::text as r
              from ${sql.table(table.name)} t where ${filter} order by ${keys}`
          : sql<{ k: string; r: string }>`select json_array(${keys}) as k, json_object(${sql.join(
              table.columns.map((c) => sql`${sql.lit(c)}, ${sql.ref(c)}`),
            )}) as r from ${sql.table(table.name)} where ${filter} order by ${keys}`;
      const { rows } = await query.execute(this.db);
      out.set(table.name, new Map(rows.map(({ k, r }) => [k, r])));
    }
    return out;
  }
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
