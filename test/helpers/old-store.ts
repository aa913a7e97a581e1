import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Clock } from '../../src/core/clock.ts';
import { openDatabase, type StoreOptions } from '../../src/db/database.ts';
import { foundationMigrations } from '../../src/db/migrations/index.ts';
import type { Dialect, Store } from '../../src/db/store-interface.ts';
import { resourceMigrations } from '../../src/resources/index.ts';
import { CreatorsStore } from '../../src/resources/profile/creator.store.ts';
import { studioMigrations } from '../../src/studio/migrations.ts';
import { freshPostgresSchema } from './dialects.ts';

/**
 * A store as it stood before a migration: every migration named before `first` run (the
 * foundation's, the resources' and the studio's), none after, and no history triggers. Opening it
 * again with openStore runs the rest, as a deployment's upgrade does.
 */
export function openStoreBefore(options: StoreOptions, first: string): Promise<Store> {
  const before = (migrations: Record<string, Migration>) =>
    Object.fromEntries(Object.entries(migrations).filter(([name]) => name < first));
  return openDatabase(options, {
    ...before(foundationMigrations),
    ...before(resourceMigrations()),
    ...before(studioMigrations),
  });
}

/**
 * A store of its own (a temporary folder, and a PostgreSQL schema of its own) as it stood before
 * `first`, holding one creator and one empty guide `guideId`: what a test of a history migration
 * writes its old rows into. `cleanup` collects what removes them, to run after the test.
 */
export async function oldStoreWithGuide(
  dialect: Dialect,
  first: string,
  guideId: string,
  clock: Clock,
  cleanup: Array<() => Promise<void> | void>,
): Promise<{ old: Store; options: StoreOptions; creatorId: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'creator-api-old-store-'));
  cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const schema = dialect === 'postgres' ? await freshPostgresSchema() : undefined;
  if (schema) cleanup.push(() => schema.drop());
  const options = { dataDir, databaseUrl: schema?.url };
  const old = await openStoreBefore(options, first);
  const creator = await new CreatorsStore({ db: old.db, clock, dialect: old.dialect }).create({
    email: `${guideId}@example.com`,
    displayName: 'Old store',
    agreementAccepted: true,
  });
  const at = clock.now();
  await sql`insert into guides (id, creator_id, name, slug, store_tags, created_at, updated_at, revision)
    values (${guideId}, ${creator.creatorId}, 'Lakes', 'lakes', '[]', ${at}, ${at}, 1)`.execute(old.db);
  return { old, options, creatorId: creator.creatorId };
}
