/**
 * Whether a store error means "the database is away for now" (restarting, unreachable, frozen past
 * a deadline, its file locked by another process) rather than a fault of the statement: callers
 * are then told to try again (503), never given a 500.
 */
export function storeUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (err instanceof ConnectionWaitTimeout) return true;
  const { code, errcode } = err as { code?: unknown; errcode?: unknown };
  if (code === 'ERR_SQLITE_ERROR' && typeof errcode === 'number') return SQLITE_AWAY.has(errcode & 0xff);
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code) || POSTGRES_AWAY.has(code)) return true;
    // SQLSTATE class 08: connection exception.
    if (/^08[0-9A-Z]{3}$/.test(code)) return true;
  }
  return PG_CLIENT_MESSAGES.some((pattern) => pattern.test(err.message));
}

/** What the operating system says when a connection to the database cannot be made or was cut. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL's own: the server shutting down (57P01 admin_shutdown, 57P02 crash_shutdown), starting
 * (57P03 cannot_connect_now), full (53300 too_many_connections), or a statement cancelled by
 * statement_timeout (57014 query_canceled).
 */
const POSTGRES_AWAY = new Set(['57P01', '57P02', '57P03', '53300', '57014']);

/** node-postgres says these without a code: a connection lost, not made in time, or a reply not read in time. */
const PG_CLIENT_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect$/,
  /^Query read timeout$/,
  /is not queryable$/,
];

/**
 * SQLite's primary result codes for a file that cannot be used now: BUSY and LOCKED (another
 * process holds the lock past busy_timeout), READONLY, IOERR, FULL, CANTOPEN, PROTOCOL.
 */
const SQLITE_AWAY = new Set([5, 6, 8, 10, 13, 14, 15]);

/** The embedded store's one connection did not come free in time (a pool says the same in its own words). */
export class ConnectionWaitTimeout extends Error {
  constructor(waitMs: number) {
    super(`no store connection came free within ${waitMs} ms`);
    this.name = 'ConnectionWaitTimeout';
  }
}
