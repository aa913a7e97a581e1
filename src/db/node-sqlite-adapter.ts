import { closeSync, openSync, readSync } from 'node:fs';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import type { SqliteDatabase, SqliteStatement } from 'kysely';
import { heldValue } from './held-values.ts';
import { firstValues, spliceOf } from './history-splices.ts';
import type { StoreProbe } from './store-probe.ts';
import { WAL_KEPT_BYTES } from './wal-checkpointer.ts';

type Bindable = null | number | bigint | string | NodeJS.ArrayBufferView;

function bindable(value: unknown): Bindable {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value === undefined) return null;
  return value as Bindable;
}

const SQLITE_BUSY = 5;

/** The statements Kysely opens and ends a transaction with. */
const TRANSACTION_BOUNDS: ReadonlySet<string> = new Set(['begin immediate', 'commit', 'rollback']);

/** The log's size (4 KB pages) at which a commit checkpoints itself though another connection is to. */
const BACKSTOP_CHECKPOINT_FRAMES = 20_000;

/**
 * The connection's page cache, in KiB (SQLite's default is 2,000): a store past that size made
 * each write pay for the pages it recycled, 25 µs of SQLite's time a `update_spot` on a store
 * whose history had grown to 30 MB. 32 MiB took that back but made a 4,000-spot restore a fifth
 * slower; 8 MiB lies between, and the runs so far do not settle the size (docs/decisions/
 * performance.md, "The cache's size against the restore"). SQLite takes the memory as pages are
 * read, so a small store uses no more than before.
 */
const PAGE_CACHE_KIB = 8 * 1024;

/**
 * The columns of a change's own entry that the trigger recording its first row fills
 * (`history_change_field(n)`, n their place here), and NodeSqliteAdapter.describeChange's values.
 */
export const CHANGE_FIELDS = ['guide_id', 'seq', 'at', 'operation', 'by_id'] as const;

/** The first copy of the WAL-index header, at the start of the -shm file. */
const WAL_INDEX_HEADER_BYTES = 48;

/**
 * Kysely's SqliteDialect speaks to a better-sqlite3-shaped database; this adapts Node's built-in
 * node:sqlite to it. Kysely prepares every query anew, so statements are cached by their SQL text
 * (the cache is bounded: queries are built from a fixed set of shapes, but `IN (...)` lists vary).
 */
export class NodeSqliteAdapter implements SqliteDatabase {
  private readonly db: DatabaseSync;
  private readonly cache = new Map<string, SqliteStatement>();
  private readonly walIndexFile: string | undefined;
  private walIndex: number | undefined;
  private readonly walHeader = Buffer.alloc(WAL_INDEX_HEADER_BYTES);
  /** The header last read, and its text: the same text object while the header stands still. */
  private readonly lastHeader = Buffer.alloc(WAL_INDEX_HEADER_BYTES);
  private lastStamp = '';
  /** How many times the stamp was read: a call notes it as it arrives (see commitStampSince). */
  private stampReads = 0;
  private dataVersion: StatementSync | undefined;
  /** The last data_version read, with the commit stamp it was read under. */
  private versionRead: { stamp: string; version: number } | undefined;
  /** Told of the reads answered at once (readNow), which never pass through Kysely's driver. */
  private readonly probe: StoreProbe | undefined;

  /**
   * The change the open write transaction records its rows under (core/history.ts), read by the
   * history triggers through `history_change()`: held here, not in a table, so naming it costs a
   * function call rather than a write; it ends with the transaction, however that ends.
   */
  private openChange: string | null = null;

  /** The rows the open change recorded so far: `history_order()` numbers each row by its place in it. */
  private changeRows = 0;

  /**
   * What the open change is (CHANGE_FIELDS' values), once known before it recorded a row: the
   * trigger that records its first row writes them on that row's entry (`history_change_field(n)`).
   */
  private changeFields: readonly unknown[] | undefined;

  /** Guides the open change's write deleted: what it recorded of them is not kept. */
  private readonly removedGuides = new Set<string>();

  /** How long a statement waits for a lock another process holds before SQLITE_BUSY. */
  private readonly busyTimeoutMs: number;

  constructor(file: string, probe?: StoreProbe, busyTimeoutMs = 5000) {
    this.probe = probe;
    this.busyTimeoutMs = busyTimeoutMs;
    this.db = new DatabaseSync(file);
    // The wait comes first: switching to WAL needs the lock another process may hold.
    this.db.exec(`PRAGMA busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
    this.db.exec('PRAGMA journal_mode = WAL');
    this.db.exec('PRAGMA synchronous = NORMAL');
    this.db.exec('PRAGMA foreign_keys = ON');
    this.db.exec('PRAGMA temp_store = MEMORY');
    this.db.exec(`PRAGMA cache_size = -${PAGE_CACHE_KIB}`);
    // Case-insensitive name filters fold as PostgreSQL's lower() does; SQLite's lower() knows only ASCII.
    this.db.function('fold_case', { deterministic: true }, (text) =>
      typeof text === 'string' ? text.toLowerCase() : text,
    );
    this.db.function('history_change', () => this.openChange);
    this.db.function('history_order', () => ++this.changeRows);
    // Asked after history_order() in the same row of values: only the change's first row is given them.
    this.db.function('history_change_field', (n) =>
      this.changeRows === 1 && this.changeFields !== undefined ? (this.changeFields[Number(n)] as Bindable) : null,
    );
    this.db.function('history_guide_removed', (id) => {
      this.removedGuides.add(String(id));
      return null;
    });
    // Long values an update changed a little of, and a row touched again: db/history-splices.ts.
    this.db.function('history_splice', { deterministic: true }, (before, after) =>
      spliceOf(String(before), String(after)),
    );
    this.db.function('history_first_values', { deterministic: true }, (kept, incoming) =>
      firstValues(kept === null ? null : String(kept), incoming === null ? null : String(incoming)),
    );
    this.db.function('held_value', (token, key) => heldValue(token, key));
    const mode = this.db.prepare('PRAGMA journal_mode').get() as { journal_mode?: string } | undefined;
    this.walIndexFile = mode?.journal_mode === 'wal' ? `${file}-shm` : undefined;
  }

  /** Whether the file keeps a write-ahead log, which a checkpointer copies back. */
  get inWalMode(): boolean {
    return this.walIndexFile !== undefined;
  }

  /**
   * Who copies the WAL back into the file: another connection (a WalCheckpointer's thread), this
   * connection's commits only as a backstop once the log is far past the usual size; or, when that
   * other one stops, this connection's commits as SQLite does by default (every 1,000 pages).
   */
  checkpointsElsewhere(elsewhere: boolean): void {
    this.db.exec(`PRAGMA wal_autocheckpoint = ${elsewhere ? BACKSTOP_CHECKPOINT_FRAMES : 1000}`);
    this.db.exec(`PRAGMA journal_size_limit = ${elsewhere ? WAL_KEPT_BYTES : -1}`);
  }

  /**
   * A stamp of the last commit to the database by any connection of any process, or undefined
   * when this connection cannot tell (a transaction is open on it, or the file is not in WAL mode).
   * It is the WAL-index header (https://www.sqlite.org/walformat.html), which every commit rewrites
   * (its change counter, last frame and checksums): while the stamp stands still, nothing was
   * committed, so whatever a read answered before still holds. One pread, against a query's locks.
   */
  commitStamp(): string | undefined {
    if (this.walIndexFile === undefined || this.db.isTransaction) return undefined;
    // SQLite makes the file at the connection's first read, and keeps it while the connection is open.
    this.walIndex ??= existingFile(this.walIndexFile);
    if (this.walIndex === undefined) return undefined;
    readSync(this.walIndex, this.walHeader, 0, WAL_INDEX_HEADER_BYTES, 0);
    this.stampReads += 1;
    // Every request reads it twice (its key, its guide's revision) and it rarely moves: no new
    // string while it stands still, and callers compare the same string object.
    if (this.lastStamp !== '' && this.walHeader.equals(this.lastHeader)) return this.lastStamp;
    this.walHeader.copy(this.lastHeader);
    this.lastStamp = this.walHeader.toString('latin1');
    return this.lastStamp;
  }

  /** Where the stamp's reads stand now: a call that notes it as it arrives may use commitStampSince. */
  get stampReadCount(): number {
    return this.stampReads;
  }

  /**
   * The commit stamp for a call that arrived when the reads stood at `since`: the last one read, if
   * it was read after the call arrived (its key's revocation check reads it first thing), else read
   * now. Exact as a read now: a stamp read after the call arrived shows every commit made before
   * it, so what it confirms is what the call would have read at that moment, while it was under way.
   * A call that commits must not use it (its own commit came after): read-only calls only.
   */
  commitStampSince(since: number | undefined): string | undefined {
    if (since !== undefined && this.stampReads > since && this.lastStamp !== '' && !this.db.isTransaction) {
      return this.lastStamp;
    }
    return this.commitStamp();
  }

  /**
   * SQLite's `PRAGMA data_version`: it moves when another connection, of this process or another,
   * committed; never for this connection's own commits. Readable whether or not a transaction is
   * open here (while this connection's write transaction is open, no other can commit).
   */
  othersCommits(): number {
    // The pragma is a read transaction (two lock system calls, a statement): while the commit stamp
    // stands still nothing was committed anywhere, so the version read under it still holds.
    const stamp = this.commitStamp();
    if (stamp !== undefined && stamp === this.versionRead?.stamp) return this.versionRead.version;
    this.dataVersion ??= this.db.prepare('PRAGMA data_version');
    const version = Number((this.dataVersion.get() as { data_version: number }).data_version);
    // The stamp was taken before the pragma: a commit landing in between moves it for the next call.
    if (stamp !== undefined) this.versionRead = { stamp, version };
    return version;
  }

  prepare(text: string): SqliteStatement {
    // Kysely begins transactions DEFERRED. A write transaction that read first would then fail
    // (SQLITE_BUSY, no wait) when another process committed in between; IMMEDIATE takes the write
    // lock at once, waiting busy_timeout for it, so writers of every process simply queue.
    const sql = text === 'begin' ? 'begin immediate' : text;
    const cached = this.cache.get(sql);
    if (cached) return cached;
    const statement = TRANSACTION_BOUNDS.has(sql)
      ? this.closingChange(wrap(this.db.prepare(sql)))
      : wrap(this.db.prepare(sql));
    if (this.cache.size >= 500) this.cache.clear();
    this.cache.set(sql, statement);
    return statement;
  }

  /** Opens a change for the write transaction open on this connection (core/history.ts): its triggers record under it until it ends. */
  recordUnder(change: string): void {
    if (!this.db.isTransaction) throw new Error('history: a change is opened inside a write transaction only');
    this.openChange = change;
    this.changeRows = 0;
    this.changeFields = undefined;
    this.removedGuides.clear();
  }

  /**
   * Tells the open change what it is, before it recorded a row: its first row's entry will say it
   * (resources/history/first-row.migration.ts). False, and nothing told, once a row is recorded.
   */
  describeChange(fields: Readonly<Record<(typeof CHANGE_FIELDS)[number], unknown>>): boolean {
    if (this.openChange === null) throw new Error('history: no change is open to describe');
    if (this.changeRows > 0) return false;
    this.changeFields = CHANGE_FIELDS.map((field) => fields[field]);
    return true;
  }

  /** Whether the open change's write deleted this guide. */
  removedGuide(id: string): boolean {
    return this.removedGuides.has(id);
  }

  /** Names the open change anew, its rows counted on: a change takes its guide's id (core/history.ts). */
  renameChange(change: string): void {
    if (this.openChange === null) throw new Error('history: no change is open to rename');
    this.openChange = change;
  }

  /** A transaction's begin, commit or rollback, which ends any change a transaction left open. */
  private closingChange(statement: SqliteStatement): SqliteStatement {
    const closing = <T>(run: () => T): T => {
      this.openChange = null;
      return run();
    };
    return {
      reader: statement.reader,
      all: (parameters) => closing(() => statement.all(parameters)),
      run: (parameters) => closing(() => statement.run(parameters)),
      iterate: (parameters) => closing(() => statement.iterate(parameters)),
    };
  }

  /** How many rows the open change recorded so far: none, and closing it has nothing to keep. */
  get changeRowsRecorded(): number {
    return this.openChange === null ? 0 : this.changeRows;
  }

  /**
   * Runs a read now, synchronously, when no transaction is open on the connection: it can only
   * see committed rows. Undefined when a transaction is open; the caller then queues behind it.
   */
  readNow(sql: string, parameters: readonly unknown[]): unknown[] | undefined {
    if (this.db.isTransaction) return undefined;
    return this.observed(sql, () => this.prepare(sql).all(parameters));
  }

  /**
   * Runs a statement now, synchronously, inside the write transaction open on this connection (the
   * write that holds it is the caller: nothing else runs on it until the caller's next await).
   * Answers how many rows it changed.
   */
  runInTransaction(sql: string, parameters: readonly unknown[]): number {
    if (!this.db.isTransaction) throw new Error('runInTransaction: no transaction is open on this connection');
    return Number(this.observed(sql, () => this.prepare(sql).run(parameters)).changes);
  }

  /** Runs a statement now inside the open write transaction, as runInTransaction: the first value it answers, if any. */
  valueInTransaction(sql: string, parameters: readonly unknown[]): unknown {
    if (!this.db.isTransaction) throw new Error('valueInTransaction: no transaction is open on this connection');
    const [row] = this.observed(sql, () => this.prepare(sql).all(parameters)) as Record<string, unknown>[];
    return row === undefined ? undefined : Object.values(row)[0];
  }

  /** A statement run past Kysely, told to the probe as Kysely's driver would. */
  private observed<T>(sql: string, run: () => T): T {
    if (!this.probe?.statementsWatched) return run();
    const end = this.probe.statement(sql);
    try {
      const result = run();
      end();
      return result;
    } catch (err) {
      end(err);
      throw err;
    }
  }

  /**
   * Whether this connection could take the write lock now, without waiting: false while another
   * process holds it. Taken and let go at once (synchronously, so no statement of ours comes between);
   * while a transaction of ours is open the lock is ours or about to be, and nothing is tried.
   */
  writeLockFree(): boolean {
    if (this.db.isTransaction) return true;
    this.db.exec('PRAGMA busy_timeout = 0');
    try {
      this.db.exec('BEGIN IMMEDIATE');
      this.db.exec('ROLLBACK');
      return true;
    } catch (err) {
      if ((err as { errcode?: number }).errcode === SQLITE_BUSY) return false;
      throw err;
    } finally {
      this.db.exec(`PRAGMA busy_timeout = ${Math.trunc(this.busyTimeoutMs)}`);
    }
  }

  close(): void {
    this.cache.clear();
    if (this.walIndex !== undefined) closeSync(this.walIndex);
    this.db.close();
  }
}

function existingFile(path: string): number | undefined {
  try {
    return openSync(path, 'r');
  } catch {
    return undefined;
  }
}

function wrap(statement: StatementSync): SqliteStatement {
  const reader = statement.columns().length > 0;
  return {
    reader,
    all: (parameters) => statement.all(...parameters.map(bindable)),
    run: (parameters) => statement.run(...parameters.map(bindable)),
    iterate: (parameters) => statement.iterate(...parameters.map(bindable)) as IterableIterator<unknown>,
  };
}
