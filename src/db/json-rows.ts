import type { RawBuilder } from 'kysely';
import { jsonArrayFrom as postgresJsonArray } from 'kysely/helpers/postgres';
import { jsonArrayFrom as sqliteJsonArray } from 'kysely/helpers/sqlite';
import type { Dialect } from './store-interface.ts';

/**
 * A subquery's rows as one JSON array column of the outer query, so that a record and the lists
 * it holds come back in one statement (one round trip to PostgreSQL). The subquery must name its
 * columns (SQLite's json_object cannot take `*`). The rows come back in any order: sort them.
 */
export function jsonRowsOf<O>(dialect: Dialect, subquery: Parameters<typeof sqliteJsonArray<O>>[0]): RawBuilder<O[]> {
  return (dialect === 'postgres' ? postgresJsonArray(subquery) : sqliteJsonArray(subquery)) as RawBuilder<O[]>;
}

/** The rows of a column made by jsonRowsOf: PostgreSQL's driver parses JSON already, SQLite answers text. */
export function rowsOfJson<O>(value: unknown): O[] {
  if (typeof value === 'string') return JSON.parse(value) as O[];
  return (value ?? []) as O[];
}
