import type { TrackedTable } from '../../db/history-triggers.ts';
import type { ChangesStore } from './change.store.ts';

type Values = Record<string, unknown>;

/** One row an undo or a restore puts back: its table, its key and the values it gets. */
export interface RowPutBack {
  table: string;
  key: Values;
  values: Values;
}

/**
 * Before an undo or a restore puts rows back, clears the unique values they are about to get back
 * where a row holds another now (a chapter's slug; unique columns that cannot hold null never
 * change: spot keys, property keys, a guide's slug). Two chapters that traded slugs since would
 * otherwise clash half-way, though the state they go back to held; a value a record outside the
 * rows put back holds still clashes, and is refused (clashRefusal).
 */
export async function clearTradedValues(
  store: ChangesStore,
  tables: readonly TrackedTable[],
  rows: Iterable<RowPutBack>,
): Promise<void> {
  const byName = new Map(tables.map((t) => [t.name, t]));
  for (const { table, key, values } of rows) {
    for (const column of byName.get(table)?.nullableUnique ?? []) {
      const value = values[column];
      if (value !== undefined && value !== null) await store.clearUnless(table, key, column, value);
    }
  }
}
