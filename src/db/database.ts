import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { Kysely, type Logger, PostgresDialect, SqliteDialect, sql } from 'kysely';
import { type Migration, Migrator } from 'kysely/migration';
import pg from 'pg';
import { type Coordination, sqliteCoordination } from './coordination.ts';
import { NodeSqliteAdapter } from './node-sqlite-adapter.ts';
import { type CoordinationLog, PostgresCoordination } from './pg-coordination.ts';
import { NamedStatementsClient } from './pg-statements.ts';
import type { Database } from './tables.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface Store {
  db: Kysely<Database>;
  dialect: Dialect;
  /** What the instances on this store agree on beyond its rows: revocations heard, jobs running. */
  coordination: Coordination;
  close(): Promise<void>;
}

export interface StoreOptions {
  /** PostgreSQL connection string; when absent, the embedded SQLite file under dataDir. */
  databaseUrl?: string | undefined;
  dataDir: string;
  /** Where a lost coordination connection is reported (PostgreSQL). */
  log?: CoordinationLog;
  /**
   * PostgreSQL: run parameterized statements as named prepared statements, parsed and planned once
   * per connection (DATABASE_PREPARED_STATEMENTS; on unless false).
   */
  preparedStatements?: boolean;
  /** Told every statement sent to the store, transactions' begin and commit included (tests count round trips). */
  onStatement?: (sql: string) => void;
}

const BIGINT_OID = 20;
const NUMERIC_OID = 1700;

/**
 * Opens the store and brings its schema up to date with the migrations given: the foundation's
 * and every resource's (src/store.ts gathers them), run in the order of their names.
 */
export async function openDatabase(options: StoreOptions, migrations: Record<string, Migration>): Promise<Store> {
  const log = options.onStatement && statementLog(options.onStatement);
  const store = options.databaseUrl
    ? openPostgres(options.databaseUrl, { problems: options.log, log, prepared: options.preparedStatements ?? true })
    : openSqlite(options.dataDir, log);
  await migrate(store.db, migrations, store.dialect === 'postgres' ? await currentSchema(store.db) : undefined);
  return store;
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

/** Kysely's log, telling `onStatement` each statement's text. */
function statementLog(onStatement: (sql: string) => void): Logger {
  return (event) => {
    if (event.level === 'query') onStatement(event.query.sql);
  };
}

function openSqlite(dataDir: string, log: Logger | undefined): Store {
  mkdirSync(dataDir, { recursive: true });
  const file = resolve(dataDir, 'creator-api.sqlite');
  const adapter = new NodeSqliteAdapter(file);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: adapter }), ...(log && { log }) });
  directReaders.set(db, adapter);
  return { db, dialect: 'sqlite', coordination: sqliteCoordination(adapter, file), close: () => db.destroy() };
}

/** The embedded store's connection behind each Kysely instance, for reads that need not queue. */
export const directReaders = new WeakMap<object, NodeSqliteAdapter>();

interface PostgresOptions {
  problems: CoordinationLog | undefined;
  log: Logger | undefined;
  prepared: boolean;
}

function openPostgres(connectionString: string, { problems, log, prepared }: PostgresOptions): Store {
  // Times in ms are bigint columns: read them back as numbers, not strings.
  const types = {
    getTypeParser: (oid: number, format?: 'text' | 'binary') =>
      oid === BIGINT_OID || oid === NUMERIC_OID ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format),
  };
  const pool = new pg.Pool({
    connectionString,
    types: types as pg.CustomTypesConfig,
    max: 10,
    ...(prepared && { Client: NamedStatementsClient }),
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), ...(log && { log }) });
  const coordination = new PostgresCoordination(connectionString, problems);
  return {
    db,
    dialect: 'postgres',
    coordination,
    close: async () => {
      await coordination.close();
      await db.destroy();
    },
  };
}

async function migrate(
  db: Kysely<Database>,
  migrations: Record<string, Migration>,
  migrationTableSchema: string | undefined,
): Promise<void> {
  const provider = { getMigrations: async () => migrations };
  const migrator = new Migrator({ db, provider, migrationTableSchema });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
