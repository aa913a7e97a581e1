import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { Kysely, sql } from 'kysely';
import { type Migration, Migrator } from 'kysely/migration';
import { type Coordination, sqliteCoordination } from './coordination.ts';
import { EmbeddedDialect } from './embedded-dialect.ts';
import { NodeSqliteAdapter } from './node-sqlite-adapter.ts';
import { ObservedDialect } from './observed-dialect.ts';
import type { CoordinationLog } from './pg-coordination.ts';
import { StoreProbe } from './store-probe.ts';
import type { Database } from './tables.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface Store {
  db: Kysely<Database>;
  dialect: Dialect;
  /** Where metrics and traces watch connections and statements. */
  probe: StoreProbe;
  /** Whether the store answers and every migration this build knows has run (what /readyz reports). */
  readiness(): Promise<Readiness>;
  /** What the instances on this store agree on beyond its rows: revocations heard, jobs running. */
  coordination: Coordination;
  close(): Promise<void>;
}

export type Readiness = { ready: true } | { ready: false; reason: string };

export interface StoreOptions {
  /** PostgreSQL connection string; when absent, the embedded SQLite file under dataDir. */
  databaseUrl?: string | undefined;
  dataDir: string;
  /**
   * PostgreSQL: run parameterized statements as named prepared statements, parsed and planned once
   * per connection (DATABASE_PREPARED_STATEMENTS; on unless false).
   */
  preparedStatements?: boolean;
  /** Where a lost coordination connection is reported (PostgreSQL). */
  log?: CoordinationLog;
}

/** What keeps the schema whole around migrations (the history triggers): work before and after them. */
export interface SchemaUpkeep {
  /** Runs only when migrations are about to run. */
  beforeMigrating(db: Kysely<Database>, dialect: Dialect): Promise<void>;
  /** Runs at every open, once the schema is up to date. */
  afterMigrating(db: Kysely<Database>, dialect: Dialect): Promise<void>;
}

/**
 * Opens the store and brings its schema up to date with the migrations given: the foundation's
 * and every resource's (src/store.ts gathers them), run in the order of their names.
 */
export async function openDatabase(
  options: StoreOptions,
  migrations: Record<string, Migration>,
  upkeep?: SchemaUpkeep,
): Promise<Store> {
  // pg and its client are loaded only for a PostgreSQL store.
  const opened = options.databaseUrl
    ? (await import('./pg-store.ts')).openPostgres(options.databaseUrl, {
        problems: options.log,
        prepared: options.preparedStatements ?? true,
      })
    : openSqlite(options.dataDir);
  const migrator = new Migrator({
    db: opened.db,
    provider: { getMigrations: async () => migrations },
    migrationTableSchema: opened.dialect === 'postgres' ? await currentSchema(opened.db) : undefined,
  });
  if (upkeep && (await readinessOf(migrator)).ready === false) await upkeep.beforeMigrating(opened.db, opened.dialect);
  await migrate(migrator);
  await upkeep?.afterMigrating(opened.db, opened.dialect);
  return { ...opened, readiness: () => readinessOf(migrator) };
}

/** Migrations this build knows that the store has not run: none once the store is up to date. */
async function readinessOf(migrator: Migrator): Promise<Readiness> {
  const pending = (await migrator.getMigrations()).filter((m) => m.executedAt === undefined);
  if (pending.length === 0) return { ready: true };
  return { ready: false, reason: `${pending.length} migration(s) not run yet, first ${pending[0]?.name}` };
}

/**
 * The schema the connection writes to (first on its search_path). Kysely's migrator, given no
 * schema, takes its lock and migration tables in any schema of the database for its own, so two
 * stores in two schemas of one database (parallel test files) would trip over each other.
 */
async function currentSchema(db: Kysely<Database>): Promise<string | undefined> {
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
  return rows[0]?.schema ?? undefined;
}

export type OpenedStore = Omit<Store, 'readiness'>;

function openSqlite(dataDir: string): OpenedStore {
  mkdirSync(dataDir, { recursive: true });
  const probe = new StoreProbe(1);
  const file = resolve(dataDir, 'creator-api.sqlite');
  const adapter = new NodeSqliteAdapter(file, probe);
  const db = new Kysely<Database>({
    dialect: new ObservedDialect(new EmbeddedDialect({ database: adapter }), probe),
  });
  directReaders.set(db, adapter);
  return { db, dialect: 'sqlite', probe, coordination: sqliteCoordination(adapter, file), close: () => db.destroy() };
}

/** The embedded store's connection behind each Kysely instance, for reads that need not queue. */
export const directReaders = new WeakMap<object, NodeSqliteAdapter>();

async function migrate(migrator: Migrator): Promise<void> {
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
