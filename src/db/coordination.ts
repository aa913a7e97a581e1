import { type Kysely, PostgresAdapter, sql } from 'kysely';
import type { NodeSqliteAdapter } from './node-sqlite-adapter.ts';
import type { Database } from './tables.ts';

/** What a job that ran alone answers: its result, or that the same job already ran elsewhere. */
export type Exclusive<T> = { ran: true; value: T } | { ran: false };

/**
 * What the instances on one store agree on beyond its rows: when a credential may have stopped
 * working, and which jobs run now. Each store has one (`Store.coordination`).
 */
export interface Coordination {
  /**
   * A mark of what this process knows of revocations. While it stays the same, no revocation
   * acknowledged a second ago or earlier went unseen since it was taken, so a credential read
   * under it still holds. Undefined when that cannot be told now: then the store is read.
   */
  revocationMark(): string | undefined;
  /**
   * Runs `work` unless the job of that name runs now, in this process or (PostgreSQL) on any
   * instance on the store: then answers `{ ran: false }` at once, without waiting.
   */
  exclusive<T>(job: string, work: () => Promise<T>): Promise<Exclusive<T>>;
  close(): Promise<void>;
}

/** The channel revocations are announced on (PostgreSQL); the payload names the schema. */
export const REVOCATION_CHANNEL = 'creator_api_revocations';

/** Revocations announced in this process: moves every store's mark at once, before any commit. */
let localRevocations = 0;

export function localRevocationCount(): number {
  return localRevocations;
}

export function isPostgres(db: Kysely<Database>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * Tells every instance that credentials may have stopped working: a key revoked, an account
 * deactivated, an assistant's authorization withdrawn. Call it on the connection or transaction
 * that makes the change. On PostgreSQL the signal (NOTIFY) leaves with the commit, never before
 * it and never for a rollback; on SQLite the commit moves every other connection's mark (its
 * data_version), and the count below moves this process's.
 */
export async function announceRevocation(db: Kysely<Database>): Promise<void> {
  localRevocations += 1;
  if (isPostgres(db)) await sql`select pg_notify(${REVOCATION_CHANNEL}, current_schema())`.execute(db);
}

/**
 * Makes transactions that name the same `what` run one after the other, on every instance: on
 * PostgreSQL a transaction-scoped advisory lock, released by the commit or rollback; on SQLite
 * every write transaction begins IMMEDIATE and runs alone already. For a check-then-write that no
 * row lock covers (the first row of an empty table).
 */
export async function oneAtATime(trx: Kysely<Database>, what: string): Promise<void> {
  if (isPostgres(trx))
    await sql`select pg_advisory_xact_lock(hashtextextended(current_schema() || ${` ${what}`}, 0))`.execute(trx);
}

/** Jobs running now per SQLite file, in this process: every store on the file shares them. */
const runningByFile = new Map<string, Set<string>>();

/** Runs `work` unless `job` is in `running` already; keeps it there meanwhile. */
export async function aloneIn<T>(running: Set<string>, job: string, work: () => Promise<T>): Promise<Exclusive<T>> {
  if (running.has(job)) return { ran: false };
  running.add(job);
  try {
    return { ran: true, value: await work() };
  } finally {
    running.delete(job);
  }
}

/**
 * The embedded store's coordination. Its mark moves with every commit made by another connection,
 * of this process or another (the admin command line's revocations too: SQLite's data_version),
 * and with every revocation announced here; this server's own writes leave it standing, so keys
 * stay cached under a load of writes. Jobs are exclusive within the process: several instances
 * sharing work is PostgreSQL's part.
 */
export function sqliteCoordination(adapter: NodeSqliteAdapter, file: string): Coordination {
  let running = runningByFile.get(file);
  if (!running) {
    running = new Set();
    runningByFile.set(file, running);
  }
  const jobs = running;
  // The same string while neither part moves: every authenticated call compares it with the one
  // its cached key was read under, and a fresh one would be joined and compared character by character.
  let mark = { local: -1, others: -1, text: '' };
  return {
    revocationMark: () => {
      const others = adapter.othersCommits();
      if (mark.local !== localRevocations || mark.others !== others) {
        mark = { local: localRevocations, others, text: `${localRevocations} ${others}` };
      }
      return mark.text;
    },
    exclusive: (job, work) => aloneIn(jobs, job, work),
    close: async () => {},
  };
}
