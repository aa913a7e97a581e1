import type { Resource } from '../../core/resource.ts';
import { up } from './change.migration.ts';
import { historyOperations } from './change.operations.ts';
import { ChangesStore } from './change.store.ts';
import type { ChangeRowsTable, ChangesTable } from './change.tables.ts';
import { up as entries } from './entries.migration.ts';
import { up as firstRow } from './first-row.migration.ts';
import { up as guideIds } from './guide-ids.migration.ts';
import { up as lean } from './lean.migration.ts';
import { up as rowsByChange } from './rows-by-change.migration.ts';

declare module '../../core/stores.ts' {
  interface Stores {
    changes: ChangesStore;
  }
}

declare module '../../db/tables.ts' {
  interface Database {
    changes: ChangesTable;
    change_rows: ChangeRowsTable;
  }
}

/** The history of a guide's changes and their undo (core/history.ts records them on every write). */
export const historyResource: Resource = {
  tag: {
    name: 'history',
    description: 'What was changed in a guide, by whom, and undoing it',
  },
  operations: historyOperations,
  stores: { changes: (scope, { history }) => new ChangesStore(scope, history) },
  migrations: {
    '0030-history': { up },
    '0036-history-lean': { up: lean },
    '0038-history-rows-by-change': { up: rowsByChange },
    '0039-history-entries': { up: entries },
    '0040-history-guide-ids': { up: guideIds },
    '0041-history-change-on-first-row': { up: firstRow },
  },
  // Its own tables hold no guide content: recording them would record the record.
  // (`history_entries` is where the embedded store keeps both: entries.migration.ts.)
  history: { changes: 'untracked', change_rows: 'untracked', history_entries: 'untracked' },
};

export { listChanges, undoChangesOperation } from './change.operations.ts';
export type { Change } from './change.schema.ts';
export { authorOf } from './change.store.ts';
export { RowRemover } from './row-remover.ts';
export { clearTradedValues, type RowPutBack } from './traded-values.ts';
export { undoableOutcome } from './undo.ts';
