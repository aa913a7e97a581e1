import type { Migration } from 'kysely/migration';
import { openDatabase, type StoreOptions } from '../../src/db/database.ts';
import { foundationMigrations } from '../../src/db/migrations/index.ts';
import type { Store } from '../../src/db/store-interface.ts';
import { resourceMigrations } from '../../src/resources/index.ts';
import { studioMigrations } from '../../src/studio/migrations.ts';
import { whileNoSchemaIsDropped } from './dialects.ts';

/**
 * A store as it stood before a migration: every migration named before `first` run (the
 * foundation's, the resources' and the studio's), none after, and no history triggers. Opening it
 * again with openStore runs the rest, as a deployment's upgrade does.
 */
export function openStoreBefore(options: StoreOptions, first: string): Promise<Store> {
  const before = (migrations: Record<string, Migration>) =>
    Object.fromEntries(Object.entries(migrations).filter(([name]) => name < first));
  return whileNoSchemaIsDropped(options.databaseUrl, () =>
    openDatabase(options, {
      ...before(foundationMigrations),
      ...before(resourceMigrations()),
      ...before(studioMigrations),
    }),
  );
}
