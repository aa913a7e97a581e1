import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { Kysely, sql } from 'kysely';
import { type Migration, Migrator } from 'kysely/migration';
import { sqliteCoordination } from './coordination.ts';
import { EmbeddedDialect } from './embedded-dialect.ts';
import { NodeSqliteAdapter } from './node-sqlite-adapter.ts';
import { ObservedDialect } from './observed-dialect.ts';
import type { CoordinationLog } from './pg-coordination.ts';
import type { StoreDeadlines } from './pg-deadlines.ts';
import type { Dialect, OpenedStore, Readiness, Store } from './store-interface.ts';
import { StoreProbe } from './store-probe.ts';
import type { Database } from './tables.ts';
import { WalCheckpointer } from './wal-checkpointer.ts';

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
  /**
   * How long a statement and the wait for a connection may take before the caller is told the store
   * is away (DATABASE_STATEMENT_TIMEOUT_MS, DATABASE_ACQUIRE_TIMEOUT_MS); none: no bound (tools).
   */
  deadlines?: StoreDeadlines;
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
  const { databaseUrl, deadlines } = options;
  if (databaseUrl) {
    // pg and its client are loaded only for a PostgreSQL store.
    const { openPostgres } = await import('./pg-store.ts');
    const open = (bounded: StoreDeadlines | undefined) =>
      openPostgres(databaseUrl, {
        problems: options.log,
        prepared: options.preparedStatements ?? true,
        deadlines: bounded,
      });
    // Migrations run on connections of their own, without the statement deadline: building an index
    // on a large table may take minutes, and the deadline is there for the calls of creators.
    const opened = open(deadlines);
    const migrating = deadlines ? open(undefined) : opened;
    try {
      await migrateKeepingUp(migrating, await migratorOf(migrating, migrations), upkeep);
    } finally {
      if (migrating !== opened) await migrating.close();
    }
    const migrator = await migratorOf(opened, migrations);
    return { ...opened, readiness: () => readinessOf(migrator) };
  }
  const opened = openSqlite(options.dataDir, deadlines, options.log);
  const migrator = await migratorOf(opened, migrations);
  await migrateKeepingUp(opened, migrator, upkeep);
  const adapter = directReaders.get(opened.db) as NodeSqliteAdapter;
  return { ...opened, readiness: async () => (await writable(adapter)) ?? readinessOf(migrator) };
}

/** Runs the migrations still to run, with the upkeep's work before them (if any run) and after. */
async function migrateKeepingUp(opened: OpenedStore, migrator: Migrator, upkeep: SchemaUpkeep | undefined) {
  if (upkeep && (await readinessOf(migrator)).ready === false) await upkeep.beforeMigrating(opened.db, opened.dialect);
  await migrate(migrator);
  await upkeep?.afterMigrating(opened.db, opened.dialect);
}

async function migratorOf(opened: OpenedStore, migrations: Record<string, Migration>): Promise<Migrator> {
  return new Migrator({
    db: opened.db,
    provider: { getMigrations: async () => migrations },
    migrationTableSchema: opened.dialect === 'postgres' ? await currentSchema(opened.db) : undefined,
  });
}

/** Migrations this build knows that the store has not run: none once the store is up to date. */
async function readinessOf(migrator: Migrator): Promise<Readiness> {
  const pending = (await migrator.getMigrations()).filter((m) => m.executedAt === undefined);
  if (pending.length === 0) return { ready: true };
  return { ready: false, reason: `${pending.length} migration(s) not run yet, first ${pending[0]?.name}` };
}

/** Tries to take the embedded store's write lock this many times, this far apart, before saying it is held. */
const LOCK_TRIES = 5;
const LOCK_TRY_EVERY_MS = 50;

/**
 * The embedded store is away when another process holds its write lock (reads still work, in WAL
 * mode): every write would wait busy_timeout and fail. A short write of the admin command line
 * holds it for milliseconds, so only a lock held across several tries counts.
 */
async function writable(adapter: NodeSqliteAdapter): Promise<Readiness | undefined> {
  for (let attempt = 1; attempt <= LOCK_TRIES; attempt++) {
    if (adapter.writeLockFree()) return undefined;
    if (attempt < LOCK_TRIES) await new Promise((resolve) => setTimeout(resolve, LOCK_TRY_EVERY_MS));
  }
  return { ready: false, reason: 'the database file is locked by another process: writes cannot be made' };
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

function openSqlite(
  dataDir: string,
  deadlines: StoreDeadlines | undefined,
  log: CoordinationLog | undefined,
): OpenedStore {
  mkdirSync(dataDir, { recursive: true });
  const probe = new StoreProbe(1);
  const file = resolve(dataDir, 'creator-api.sqlite');
  // The wait for another process's lock is the embedded store's wait for a connection.
  const adapter = new NodeSqliteAdapter(file, probe, deadlines?.acquireMs);
  const db = new Kysely<Database>({
    dialect: new ObservedDialect(new EmbeddedDialect({ database: adapter }), probe, deadlines?.acquireMs),
  });
  directReaders.set(db, adapter);
  const checkpointer = adapter.inWalMode ? checkpointOffThread(adapter, file, log) : undefined;
  const close = async () => {
    await db.destroy();
    await checkpointer?.stop();
  };
  return { db, dialect: 'sqlite', probe, coordination: sqliteCoordination(adapter, file), close };
}

/** Checkpoints on a thread of its own; should it stop, the connection's commits take over again. */
function checkpointOffThread(adapter: NodeSqliteAdapter, file: string, log: CoordinationLog | undefined) {
  adapter.checkpointsElsewhere(true);
  return new WalCheckpointer(file, (error) => {
    log?.warn({ err: error }, 'the WAL checkpointer stopped: commits checkpoint the embedded store again');
    adapter.checkpointsElsewhere(false);
  });
}

/** The embedded store's connection behind each Kysely instance, for reads that need not queue. */
export const directReaders = new WeakMap<object, NodeSqliteAdapter>();

/**
 * Where the embedded store's commit stamp reads stand as a call arrives (undefined on PostgreSQL),
 * for its reads to confirm against a stamp read since (NodeSqliteAdapter.commitStampSince).
 */
export function stampReadsOf(db: object): number | undefined {
  return directReaders.get(db)?.stampReadCount;
}

async function migrate(migrator: Migrator): Promise<void> {
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
