import { type Compilable, CompiledQuery, type Kysely, type QueryResult } from 'kysely';
import { directReaders } from './database.ts';
import type { Database } from './tables.ts';

interface Template {
  sql: string;
  parameterCount: number;
}

const templates = new WeakMap<object, Map<string, Template>>();

/**
 * How many templates a store object keeps: named queries are a fixed few, but statements shaped by
 * their columns (ofShape) come in as many shapes as the before-images an undo puts back name.
 */
const TEMPLATES_KEPT = 1000;

/**
 * A hot query built and compiled once per store object (so once per dialect), then run with new
 * parameters: building and compiling a Kysely query costs more than SQLite takes to answer it.
 * `build` uses placeholder values in the order `run` passes the real ones.
 */
export function prepared<Row>(name: string, build: (db: Kysely<Database>) => Compilable<Row>) {
  return async (db: Kysely<Database>, ...parameters: unknown[]): Promise<Row[]> => {
    const sql = templateOf(db, name, () => build(db).compile(), parameters.length);
    // The embedded store answers at once when no transaction holds its one connection.
    const now = directReaders.get(db)?.readNow(sql, parameters);
    if (now !== undefined) return now as Row[];
    return (await db.executeQuery<Row>(CompiledQuery.raw(sql, parameters))).rows;
  };
}

/**
 * A statement whose text depends only on its shape (a table and the columns it names), compiled the
 * first time that shape runs on this store object or transaction and then run with each call's
 * values, in the order `compile` placed them. The row-level writes of an undo or a restore run one
 * statement a row: a 40-column update built through Kysely's template took about 45 µs to build and
 * compile against 7 µs to run (docs/decisions/performance.md, "Row statements compiled once").
 */
export function ofShape<Row, DB>(
  db: Kysely<DB>,
  shape: string,
  compile: () => CompiledQuery,
  parameters: readonly unknown[],
): Promise<QueryResult<Row>> {
  const sql = templateOf(db, shape, compile, parameters.length);
  return db.executeQuery<Row>(CompiledQuery.raw(sql, [...parameters]));
}

function templateOf(db: object, name: string, compile: () => CompiledQuery, parameterCount: number): string {
  let byName = templates.get(db);
  if (!byName) {
    byName = new Map();
    templates.set(db, byName);
  }
  let template = byName.get(name);
  if (!template) {
    const compiled = compile();
    template = { sql: compiled.sql, parameterCount: compiled.parameters.length };
    if (byName.size >= TEMPLATES_KEPT) byName.clear();
    byName.set(name, template);
  }
  if (parameterCount !== template.parameterCount) {
    throw new Error(`prepared query ${name} takes ${template.parameterCount} parameters, got ${parameterCount}`);
  }
  return template.sql;
}
