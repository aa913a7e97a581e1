import pg from 'pg';

/** How long database work may take before the caller is told the store is away (DATABASE_*_TIMEOUT_MS). */
export interface StoreDeadlines {
  /** One statement, from when it is sent (PostgreSQL's statement_timeout). */
  statementMs: number;
  /** A connection: a free one from the pool or a new one (PostgreSQL), the file's write lock (SQLite's busy_timeout). */
  acquireMs: number;
}

/**
 * How much longer than statement_timeout the client waits for a reply: a live server cancels the
 * statement itself (and keeps the connection); one that says nothing by then is frozen or cut off.
 */
const READ_MARGIN_MS = 1000;

/**
 * The settings of every connection to PostgreSQL, the pool's and the coordination's: TCP keepalive
 * (a server gone without a word is noticed), and with deadlines, a bound on connecting, on each
 * statement (server side) and on waiting for its reply (client side, for a server that cannot
 * even cancel: frozen, or the network between cut).
 */
export function connectionSettings(deadlines: StoreDeadlines | undefined): pg.ClientConfig {
  return {
    keepAlive: true,
    ...(deadlines && {
      connectionTimeoutMillis: deadlines.acquireMs,
      statement_timeout: deadlines.statementMs,
      query_timeout: deadlines.statementMs + READ_MARGIN_MS,
    }),
  };
}

/**
 * A pg client that never takes its process down and never holds a pool slot for a reply that is
 * not coming. node-postgres emits 'error' when the server ends a connection no query is waiting on
 * (a restart, a failover, pg_terminate_backend, idle_session_timeout); with no listener that ends
 * the process. The pool listens only while a client is idle, so a client held between the
 * statements of a transaction needs its own. Once a reply is given up on (query_timeout), the
 * connection is closed: the late reply would otherwise block every later statement on it.
 */
export class GuardedClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    // The client is then not queryable: its next statement fails, and the pool drops it on release.
    this.on('error', () => {});
  }

  // biome-ignore lint/suspicious/noExplicitAny: pg's query() has a dozen overloads; this passes them through
  override query(config: any, values?: any, callback?: any): any {
    const result: unknown = super.query(config, values, callback);
    if (!(result instanceof Promise)) return result;
    return result.catch((err: unknown) => {
      if (err instanceof Error && err.message === 'Query read timeout') {
        (this as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
      }
      throw err;
    });
  }
}
