import pg from 'pg';

export type TestDialect = 'sqlite' | 'postgres';

export const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

let reachable: Promise<boolean> | undefined;

function postgresReachable(): Promise<boolean> {
  reachable ??= (async () => {
    const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 2000 });
    try {
      await client.connect();
      await client.query('select 1');
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => {});
    }
  })();
  return reachable;
}

/**
 * The dialects a suite runs on: both, narrowed by TEST_DIALECTS=sqlite (or postgres). In CI
 * (CI=true or REQUIRE_POSTGRES=1) a missing PostgreSQL fails the run; on a laptop without one
 * the PostgreSQL leg is skipped with a note.
 */
export async function testDialects(): Promise<Array<{ dialect: TestDialect; skip: string | false }>> {
  const wanted = (process.env.TEST_DIALECTS ?? 'sqlite,postgres').split(',').map((d) => d.trim()) as TestDialect[];
  const required = process.env.CI === 'true' || process.env.REQUIRE_POSTGRES === '1';
  const out: Array<{ dialect: TestDialect; skip: string | false }> = [];
  for (const dialect of wanted) {
    if (dialect === 'postgres' && !required && !(await postgresReachable())) {
      out.push({ dialect, skip: `PostgreSQL not reachable at ${POSTGRES_URL}` });
    } else {
      out.push({ dialect, skip: false });
    }
  }
  return out;
}

/**
 * A schema of its own per server, so test files can run side by side on one database (the bench's
 * mixed load too, in the database it is given).
 */
export async function freshPostgresSchema(
  databaseUrl = POSTGRES_URL,
  prefix = 't',
): Promise<{ url: string; schema: string; drop(): Promise<void> }> {
  const schema = `${prefix}_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const url = new URL(databaseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    schema,
    async drop() {
      const c = new pg.Client({ connectionString: databaseUrl });
      await c.connect();
      await c.query(`drop schema if exists ${schema} cascade`);
      await c.end();
    },
  };
}
