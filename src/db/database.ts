import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { type Migration, Migrator } from 'kysely/migration';
import pg from 'pg';
import { type Coordination, sqliteCoordination } from './coordination.ts';
import { EmbeddedDialect } from './embedded-dialect.ts';
import { NodeSqliteAdapter } from './node-sqlite-adapter.ts';
import { ObservedDialect } from './observed-dialect.ts';
import { type CoordinationLog, PostgresCoordination } from './pg-coordination.ts';
import { NamedStatementsClient } from './pg-statements.ts';
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

const BIGINT_OID = 20;
const NUMERIC_OID = 1700;

/**
 * Opens the store and brings its schema up to date with the migrations given: the foundation's
 * and every resource's (src/store.ts gathers them), run in the order of their names.
 */
export async function openDatabase(options: StoreOptions, migrations: Record<string, Migration>): Promise<Store> {
  const opened = options.databaseUrl
    ? openPostgres(options.databaseUrl, { problems: options.log, prepared: options.preparedStatements ?? true })
    : openSqlite(options.dataDir);
  const migrator = new Migrator({
    db: opened.db,
    provider: { getMigrations: async () => migrations },
    migrationTableSchema: opened.dialect === 'postgres' ? await currentSchema(opened.db) : undefined,
  });
  await migrate(migrator);
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

type OpenedStore = Omit<Store, 'readiness'>;

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

/** Connections a PostgreSQL store opens at most. */
const POOL_MAX = 10;

interface PostgresOptions {
  problems: CoordinationLog | undefined;
  prepared: boolean;
}

function openPostgres(connectionString: string, { problems, prepared }: PostgresOptions): OpenedStore {
  // Times in ms are bigint columns: read them back as numbers, not strings.
  const types = {
    getTypeParser: (oid: number, format?: 'text' | 'binary') =>
      oid === BIGINT_OID || oid === NUMERIC_OID ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format),
  };
  const pool = new pg.Pool({
    connectionString,
    types: types as pg.CustomTypesConfig,
    max: POOL_MAX,
    ...(prepared && { Client: NamedStatementsClient }),
  });
  const probe = new StoreProbe(POOL_MAX, () => pool.totalCount);
  const db = new Kysely<Database>({ dialect: new ObservedDialect(new PostgresDialect({ pool }), probe) });
  const coordination = new PostgresCoordination(connectionString, problems);
  return {
    db,
    dialect: 'postgres',
    probe,
    coordination,
    close: async () => {
      await coordination.close();
      await db.destroy();
    },
  };
}

async function migrate(migrator: Migrator): Promise<void> {
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
