import type { Kysely } from 'kysely';
import type { Coordination } from './coordination.ts';
import type { StoreProbe } from './store-probe.ts';
import type { Database } from './tables.ts';

/*
 * What a store is, apart from how one is opened (database.ts) and what a PostgreSQL one is made of
 * (pg-store.ts, loaded only for such a store): both build on these, neither on the other.
 */

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

/** A store as a dialect opens it, before the migrator can say whether it is ready. */
export type OpenedStore = Omit<Store, 'readiness'>;
