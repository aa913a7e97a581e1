import type { Migration, MigrationProvider } from 'kysely/migration';
import * as foundation from './0001-foundation.ts';

/** Migrations in the order they run; names sort in that order too. */
const migrations: Record<string, Migration> = {
  '0001-foundation': foundation,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
