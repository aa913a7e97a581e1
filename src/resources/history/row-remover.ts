import type { OperationContext } from '../../core/operation.ts';
import type { TrackedTable } from '../../db/history-triggers.ts';

type Row = Record<string, unknown>;

interface Pointing {
  child: TrackedTable;
  column: string;
  targetColumn: string;
  cascade: boolean;
}

/**
 * Removes a guide's rows as their record's delete would, one row at a time, for undo and
 * restore_release: first its references (`beforeRemoving`), then what the foreign keys would
 * cascade to or set null, done row by row before the row itself goes. Left to the database, a
 * foreign key's action is recorded in an order each dialect picks, and an undo that walks the rows
 * back in reverse could then put a row back before the one it points at.
 */
export class RowRemover {
  private readonly ctx: OperationContext;
  /** For each table, the foreign keys of other tracked tables that point at it. */
  private readonly pointing = new Map<string, Pointing[]>();

  constructor(ctx: OperationContext, tables: readonly TrackedTable[]) {
    this.ctx = ctx;
    for (const child of tables) {
      for (const fk of child.references) {
        if (fk.onDelete === 'other') continue;
        const list = this.pointing.get(fk.table) ?? [];
        list.push({ child, column: fk.column, targetColumn: fk.targetColumn, cascade: fk.onDelete === 'cascade' });
        this.pointing.set(fk.table, list);
      }
    }
  }

  /** Removes the row of this key, if it still stands. */
  async remove(tableName: string, key: Row): Promise<void> {
    const { changes } = this.ctx.stores;
    const standing = await changes.readRow(tableName, key);
    if (!standing) return;
    const declared = changes.tables[tableName];
    if (declared !== 'untracked') await declared?.beforeRemoving?.(standing, this.ctx);
    for (const { child, column, targetColumn, cascade } of this.pointing.get(tableName) ?? []) {
      for (const dependent of await changes.rowsWhere(child.name, column, standing[targetColumn])) {
        const dependentKey = Object.fromEntries(child.keyColumns.map((c) => [c, dependent[c]]));
        if (cascade) await this.remove(child.name, dependentKey);
        else await changes.putBack(child.name, dependentKey, { [column]: null });
      }
    }
    await changes.deleteRow(tableName, key);
  }
}
