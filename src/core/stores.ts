import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../db/store-interface.ts';
import type { Database } from '../db/tables.ts';
import type { Caches } from './caches.ts';
import type { Clock } from './clock.ts';

/** What every store is built from: the call's connection (its transaction, for a write) and clock. */
export interface StoreScope {
  db: Kysely<Database>;
  clock: Clock;
  /** For the few statements the two dialects write differently (row locks). */
  dialect: Dialect;
  /**
   * A read-only call's arrival (db/database.ts stampReadsOf): a commit stamp read since then
   * confirms its cached reads as well as one read now. Never set for a call that writes.
   */
  arrival?: number | undefined;
}

/** What a store reads from its scope; each store class extends it, so all are built alike: `new XStore(scope)`. */
export abstract class ScopedStore {
  protected readonly db: Kysely<Database>;
  protected readonly clock: Clock;
  protected readonly dialect: Dialect;

  constructor(scope: StoreScope) {
    this.db = scope.db;
    this.clock = scope.clock;
    this.dialect = scope.dialect;
  }

  /**
   * An `updated_at` that moves on with every write of a row, even twice in one millisecond, so two
   * quick edits never read alike (expectedUpdatedAt checks rely on it).
   */
  protected nextUpdatedAt() {
    return nextUpdatedAt(this.clock);
  }
}

/** See ScopedStore.nextUpdatedAt: for helpers that write rows on a store's behalf. */
export function nextUpdatedAt(clock: Clock) {
  const now = clock.now();
  return sql<number>`case when updated_at >= ${now} then updated_at + 1 else ${now} end`;
}

/**
 * The stores a handler reaches through `ctx.stores`. Each resource adds its own from its folder by
 * declaration merging (`declare module '…/core/stores.ts' { interface Stores { spots: SpotsStore } }`),
 * as Fastify's decorators do, so the core names no resource and a resource needs no one else's file.
 */
// biome-ignore lint/suspicious/noEmptyInterface: resources merge their stores into it
export interface Stores {}

/**
 * What a store may be built from besides its scope: the call's other stores, for one that reads
 * through them (the whole-guide reader), the app's caches, for one that keeps what it read, and
 * what every resource says about its tables' history (merged in by core/history.ts), for the one
 * that undoes changes.
 */
export interface StoreContext {
  stores: Stores;
  caches: Caches;
}

/** How to build each store; the registry of resources supplies one for every key of `Stores`. */
export type StoreFactories = { readonly [K in keyof Stores]: (scope: StoreScope, context: StoreContext) => Stores[K] };

/**
 * Stores built on first use, once per call: a call that reads one table builds one store. The
 * getters are defined once per app on a prototype, so a call pays for an object, not a Proxy.
 */
export function lazyStores(
  factories: StoreFactories,
  caches: Caches,
  history: StoreContext['history'] = {},
): (scope: StoreScope) => Stores {
  class CallStores {
    readonly scope: StoreScope;
    /** Built so far, by name (a property defined on the object per store built cost more than the store). */
    readonly built = new Map<string, unknown>();
    constructor(scope: StoreScope) {
      this.scope = scope;
    }
  }
  type Factory = (scope: StoreScope, context: StoreContext) => unknown;
  for (const [name, build] of Object.entries(factories) as [string, Factory][]) {
    Object.defineProperty(CallStores.prototype, name, {
      get(this: CallStores) {
        let store = this.built.get(name);
        if (store === undefined) {
          store = build(this.scope, { stores: this as unknown as Stores, caches, history });
          this.built.set(name, store);
        }
        return store;
      },
    });
  }
  return (scope) => new CallStores(scope) as unknown as Stores;
}
