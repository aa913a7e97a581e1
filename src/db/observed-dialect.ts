import {
  CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import { statementWithBegin } from './begin-with.ts';
import { FairTurns, type GiveBack } from './fair-turns.ts';
import type { EndOfCall, StoreProbe } from './store-probe.ts';

/** Kysely's abort options, passed through untouched. */
type Options = Parameters<Driver['acquireConnection']>[0];

/**
 * A Kysely dialect that reports to a StoreProbe: how long a caller waits for a connection, how
 * many hold one or wait, and each statement. The queue for the store's connections (the probe's
 * `max`: a pool's, or SQLite's one) is kept here instead of inside Kysely or the pool, so that the
 * wait can be seen and is fair among parties (fair-turns.ts: another creator's call does not queue
 * behind one creator's fifty), with a bound on the wait (`waitMs`, DATABASE_ACQUIRE_TIMEOUT_MS).
 */
export class ObservedDialect implements Dialect {
  private readonly inner: Dialect;
  private readonly probe: StoreProbe;
  private readonly waitMs: number | undefined;

  constructor(inner: Dialect, probe: StoreProbe, waitMs?: number) {
    this.inner = inner;
    this.probe = probe;
    this.waitMs = waitMs;
  }

  createAdapter(): DialectAdapter {
    const adapter = this.inner.createAdapter();
    if (adapter.supportsMultipleConnections) return adapter;
    // Kysely then queues nothing itself: ObservedDriver does.
    return Object.create(adapter, { supportsMultipleConnections: { value: true } }) as DialectAdapter;
  }

  createDriver(): Driver {
    return new ObservedDriver(this.inner.createDriver(), this.probe, new FairTurns(this.probe.max, this.waitMs));
  }

  createQueryCompiler(): QueryCompiler {
    return this.inner.createQueryCompiler();
  }

  createIntrospector(db: Parameters<Dialect['createIntrospector']>[0]): DatabaseIntrospector {
    return this.inner.createIntrospector(db);
  }
}

class ObservedDriver implements Driver {
  private readonly inner: Driver;
  private readonly probe: StoreProbe;
  private readonly turns: FairTurns;
  /** Each connection's observed stand-in, and back. */
  private readonly standIns = new WeakMap<DatabaseConnection, ObservedConnection>();
  /** The turn each connection handed out now was taken under. */
  private readonly turnOf = new WeakMap<DatabaseConnection, GiveBack>();

  constructor(inner: Driver, probe: StoreProbe, turns: FairTurns) {
    this.inner = inner;
    this.probe = probe;
    this.turns = turns;
  }

  init(options?: Options): Promise<void> {
    return this.inner.init(options);
  }

  async acquireConnection(options?: Options): Promise<DatabaseConnection> {
    const { probe } = this;
    probe.waiting += 1;
    const acquired = probe.acquiring();
    let connection: DatabaseConnection;
    try {
      const giveBack = await this.turns.take();
      try {
        connection = await this.inner.acquireConnection(options);
      } catch (err) {
        giveBack();
        throw err;
      }
      this.turnOf.set(connection, giveBack);
    } catch (err) {
      probe.waiting -= 1;
      acquired(err);
      throw err;
    }
    probe.waiting -= 1;
    probe.inUse += 1;
    acquired();
    if (!probe.statementsWatched) return connection;
    let standIn = this.standIns.get(connection);
    if (!standIn) {
      standIn = new ObservedConnection(connection, this.probe);
      this.standIns.set(connection, standIn);
    }
    return standIn;
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const withBegin = statementWithBegin();
    if (withBegin === undefined) {
      return this.timed('begin', () => this.inner.beginTransaction(innerOf(connection), settings));
    }
    // Only PostgreSQL is asked (core/history.ts): its simple protocol runs both statements of the text.
    return this.timed('begin', async () => {
      await innerOf(connection).executeQuery(CompiledQuery.raw(`begin; ${withBegin}`));
    });
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.timed('commit', () => this.inner.commitTransaction(innerOf(connection)));
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.timed('rollback', () => this.inner.rollbackTransaction(innerOf(connection)));
  }

  // Savepoints (Kysely's trx.savepoint()), passed through to both dialects' drivers, which have them.
  savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.timed('savepoint', () => this.savepoints().savepoint(innerOf(connection), name, compile));
  }

  rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    return this.timed('rollback', () => this.savepoints().rollbackToSavepoint(innerOf(connection), name, compile));
  }

  releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    return this.timed('release', () => this.savepoints().releaseSavepoint(innerOf(connection), name, compile));
  }

  private savepoints(): Required<Pick<Driver, 'savepoint' | 'rollbackToSavepoint' | 'releaseSavepoint'>> {
    const { savepoint, rollbackToSavepoint, releaseSavepoint } = this.inner;
    if (!savepoint || !rollbackToSavepoint || !releaseSavepoint) throw new Error('this dialect has no savepoints');
    const inner = this.inner;
    return {
      savepoint: savepoint.bind(inner),
      rollbackToSavepoint: rollbackToSavepoint.bind(inner),
      releaseSavepoint: releaseSavepoint.bind(inner),
    };
  }

  async releaseConnection(connection: DatabaseConnection, options?: Options): Promise<void> {
    try {
      await this.inner.releaseConnection(innerOf(connection), options);
    } finally {
      this.probe.inUse -= 1;
      const inner = innerOf(connection);
      this.turnOf.get(inner)?.();
      this.turnOf.delete(inner);
    }
  }

  destroy(options?: Options): Promise<void> {
    return this.inner.destroy(options);
  }

  private async timed(sql: string, run: () => Promise<void>): Promise<void> {
    const end = this.probe.statement(sql);
    try {
      await run();
      end();
    } catch (err) {
      end(err);
      throw err;
    }
  }
}

/** A connection whose statements are reported to the probe. */
class ObservedConnection implements DatabaseConnection {
  readonly inner: DatabaseConnection;
  private readonly probe: StoreProbe;

  constructor(inner: DatabaseConnection, probe: StoreProbe) {
    this.inner = inner;
    this.probe = probe;
  }

  async executeQuery<R>(query: CompiledQuery, options?: Options): Promise<QueryResult<R>> {
    const end: EndOfCall = this.probe.statement(query.sql);
    try {
      const result = await this.inner.executeQuery<R>(query, options);
      end();
      return result;
    } catch (err) {
      end(err);
      throw err;
    }
  }

  streamQuery<R>(query: CompiledQuery, chunkSize: number, options?: Options): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize, options);
  }
}

function innerOf(connection: DatabaseConnection): DatabaseConnection {
  return connection instanceof ObservedConnection ? connection.inner : connection;
}
