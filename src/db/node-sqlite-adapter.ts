import { DatabaseSync, type StatementSync } from 'node:sqlite';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

type Bindable = null | number | bigint | string | NodeJS.ArrayBufferView;

function bindable(value: unknown): Bindable {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value === undefined) return null;
  return value as Bindable;
}

/**
 * Kysely's SqliteDialect speaks to a better-sqlite3-shaped database; this adapts Node's built-in
 * node:sqlite to it. Kysely prepares every query anew, so statements are cached by their SQL text
 * (the cache is bounded: queries are built from a fixed set of shapes, but `IN (...)` lists vary).
 */
export class NodeSqliteAdapter implements SqliteDatabase {
  private readonly db: DatabaseSync;
  private readonly cache = new Map<string, SqliteStatement>();

  constructor(file: string) {
    this.db = new DatabaseSync(file);
    // The wait comes first: switching to WAL needs the lock another process may hold.
    this.db.exec('PRAGMA busy_timeout = 5000');
    this.db.exec('PRAGMA journal_mode = WAL');
    this.db.exec('PRAGMA synchronous = NORMAL');
    this.db.exec('PRAGMA foreign_keys = ON');
  }

  prepare(sql: string): SqliteStatement {
    const cached = this.cache.get(sql);
    if (cached) return cached;
    const statement = wrap(this.db.prepare(sql));
    if (this.cache.size >= 500) this.cache.clear();
    this.cache.set(sql, statement);
    return statement;
  }

  /**
   * Runs a read now, synchronously, when no transaction is open on the connection: it can only
   * see committed rows. Undefined when a transaction is open; the caller then queues behind it.
   */
  readNow(sql: string, parameters: readonly unknown[]): unknown[] | undefined {
    if (this.db.isTransaction) return undefined;
    return this.prepare(sql).all(parameters);
  }

  close(): void {
    this.cache.clear();
    this.db.close();
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
