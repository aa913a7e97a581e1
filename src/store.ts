import type { Resource } from './core/resource.ts';
import { openDatabase, type StoreOptions } from './db/database.ts';
import { dropHistoryTriggers, syncHistoryTriggers } from './db/history-triggers.ts';
import { foundationMigrations } from './db/migrations/index.ts';
import type { Store } from './db/store-interface.ts';
import { historyTables, resourceMigrations } from './resources/index.ts';
import { studioMigrations } from './studio/migrations.ts';

export type { StoreOptions } from './db/database.ts';
export type { Store } from './db/store-interface.ts';

/**
 * The service's store: the database with the foundation's and every resource's tables, and those of
 * any resources served beside them (`AppDeps.resources`).
 */
export function openStore(options: StoreOptions, extra: readonly Resource[] = []): Promise<Store> {
  const tables = historyTables(extra);
  return openDatabase(
    options,
    { ...foundationMigrations, ...resourceMigrations(extra), ...studioMigrations },
    {
      beforeMigrating: dropHistoryTriggers,
      afterMigrating: (db, dialect) => syncHistoryTriggers(db, dialect, tables),
    },
  );
}
