import { AsyncResource } from 'node:async_hooks';
import { Kysely } from 'kysely';
import pg from 'pg';
import { type AsideConnection, asideConnections } from './aside-reads.ts';
import { ObservedDialect } from './observed-dialect.ts';
import { type CoordinationLog, PostgresCoordination } from './pg-coordination.ts';
import { connectionSettings, GuardedClient, type StoreDeadlines } from './pg-deadlines.ts';
import { CurrentSchemaPostgresDialect } from './pg-introspector.ts';
import { NamedStatementsClient } from './pg-statements.ts';
import type { OpenedStore } from './store-interface.ts';
import { StoreProbe } from './store-probe.ts';
import type { Database } from './tables.ts';

const BIGINT_OID = 20;
const NUMERIC_OID = 1700;

/** Connections a PostgreSQL store opens at most. */
const POOL_MAX = 10;

export interface PostgresOptions {
  problems: CoordinationLog | undefined;
  prepared: boolean;
  /** None: statements may take as long as they take (migrations). */
  deadlines: StoreDeadlines | undefined;
}

/**
 * A PostgreSQL store (DATABASE_URL): a pool of named-statement clients and the coordination
 * connection. Imported by openDatabase only for such a store, so that pg stays out of the start
 * of an embedded one.
 */
export function openPostgres(
  connectionString: string,
  { problems, prepared, deadlines }: PostgresOptions,
): OpenedStore {
  // Times in ms are bigint columns: read them back as numbers, not strings.
  const types = {
    getTypeParser: (oid: number, format?: 'text' | 'binary') =>
      oid === BIGINT_OID || oid === NUMERIC_OID ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format),
  };
  const pool = new pg.Pool({
    connectionString,
    types: types as pg.CustomTypesConfig,
    max: POOL_MAX,
    ...connectionSettings(deadlines),
    Client: prepared ? NamedStatementsClient : GuardedClient,
  });
  // An idle connection the server ended (a restart, pg_terminate_backend) is dropped and reopened on
  // demand; without a listener, the pool's 'error' would end the process.
  pool.on('error', (err) => {
    problems?.warn({ err: err.message }, 'the store ended an idle connection; the pool opens a new one when needed');
  });
  const probe = new StoreProbe(POOL_MAX, () => pool.totalCount);
  // The wait for a pool connection is kept (and bounded) by the observed dialect, fairly among creators.
  const dialect = new ObservedDialect(new CurrentSchemaPostgresDialect({ pool }), probe, deadlines?.acquireMs);
  const db = new Kysely<Database>({ dialect });
  const coordination = new PostgresCoordination(connectionString, problems, deadlines);
  asideConnections.set(db, observedAside(coordination, probe));
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

/**
 * Reads beside the pool, on the coordination connection, reported to the probe as statements. They
 * run outside any call's context: one read answers many calls, so it is no one call's span.
 */
function observedAside(coordination: PostgresCoordination, probe: StoreProbe): AsideConnection {
  const outside = new AsyncResource('creator-api aside read');
  return {
    read<R>(text: string, values: unknown[]) {
      return outside.runInAsyncScope(() => {
        const running = coordination.read<R>(text, values);
        if (!running) return undefined;
        const end = probe.statement(text);
        return running.then(
          (rows) => {
            end();
            return rows;
          },
          (err: unknown) => {
            end(err);
            throw err;
          },
        );
      });
    },
  };
}
