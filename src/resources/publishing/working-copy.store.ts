import { type RawBuilder, sql } from 'kysely';
import type { HistoryTables } from '../../core/history.ts';
import { ScopedStore, type StoreScope } from '../../core/stores.ts';
import { type TrackedTable, trackedTables } from '../../db/history-triggers.ts';

/** One row as the history keeps rows: a plain JSON object of its columns. */
export type Row = Record<string, unknown>;

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

  /** Each table's rows of the guide as one JSON array text, ordered by key: no row is parsed. */
  async rowsAsJson(tables: readonly TrackedTable[], guideId: string): Promise<Map<string, string>> {
    const byName = new Map(tables.map((t) => [t.name, t]));
    const out = new Map<string, string>();
    for (const table of tables) {
      const filter = guideFilter(table, byName, guideId);
      if (filter !== undefined) out.set(table.name, await this.jsonRows(table, filter));
    }
    return out;
  }

  private async jsonRows(table: TrackedTable, filter: RawBuilder<unknown>): Promise<string> {
    const order = sql.join(table.keyColumns.map((c) => sql.ref(c)));
    const query =
      this.dialect === 'postgres'
        ? sql<{ rows: string }>`select coalesce(json_agg(to_jsonb(t) order by ${order}), '[]')::text as rows
            from ${sql.table(table.name)} t where ${filter}`
        : sql<{ rows: string }>`select json_group_array(json_object(${sql.join(
            table.columns.map((c) => sql`${sql.lit(c)}, ${sql.ref(c)}`),
          )})) as rows from (select * from ${sql.table(table.name)} where ${filter} order by ${order})`;
    const { rows } = await query.execute(this.db);
    return rows[0]?.rows ?? '[]';
  }

  /** Each table's rows of the guide, parsed. */
  async rows(tables: readonly TrackedTable[], guideId: string): Promise<Map<string, Row[]>> {
    const texts = await this.rowsAsJson(tables, guideId);
    return new Map([...texts].map(([name, text]) => [name, JSON.parse(text) as Row[]]));
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
