import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { OpenedStore } from './database.ts';
import { ObservedDialect } from './observed-dialect.ts';
import { type CoordinationLog, PostgresCoordination } from './pg-coordination.ts';
import { NamedStatementsClient } from './pg-statements.ts';
import { StoreProbe } from './store-probe.ts';
import type { Database } from './tables.ts';

const BIGINT_OID = 20;
const NUMERIC_OID = 1700;

/** Connections a PostgreSQL store opens at most. */
const POOL_MAX = 10;

export interface PostgresOptions {
  problems: CoordinationLog | undefined;
  prepared: boolean;
}

/**
 * A PostgreSQL store (DATABASE_URL): a pool of named-statement clients and the coordination
 * connection. Imported by openDatabase only for such a store, so that pg stays out of the start
 * of an embedded one.
 */
export function openPostgres(connectionString: string, { problems, prepared }: PostgresOptions): OpenedStore {
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
