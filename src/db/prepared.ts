import { type Compilable, CompiledQuery, type Kysely } from 'kysely';
import { directReaders } from './database.ts';
import type { Database } from './tables.ts';

interface Template {
  sql: string;
  parameterCount: number;
}

const templates = new WeakMap<object, Map<string, Template>>();

/**
 * A hot query built and compiled once per store object (so once per dialect), then run with new
 * parameters: building and compiling a Kysely query costs more than SQLite takes to answer it.
 * `build` uses placeholder values in the order `run` passes the real ones.
 */
export function prepared<Row>(name: string, build: (db: Kysely<Database>) => Compilable<Row>) {
  return async (db: Kysely<Database>, ...parameters: unknown[]): Promise<Row[]> => {
    let byName = templates.get(db);
    if (!byName) {
      byName = new Map();
      templates.set(db, byName);
    }
    let template = byName.get(name);
    if (!template) {
      const compiled = build(db).compile();
      template = { sql: compiled.sql, parameterCount: compiled.parameters.length };
      byName.set(name, template);
    }
    if (parameters.length !== template.parameterCount) {
      throw new Error(`prepared query ${name} takes ${template.parameterCount} parameters, got ${parameters.length}`);
    }
    // The embedded store answers at once when no transaction holds its one connection.
    const now = directReaders.get(db)?.readNow(template.sql, parameters);
    if (now !== undefined) return now as Row[];
    return (await db.executeQuery<Row>(CompiledQuery.raw(template.sql, parameters))).rows;
  };
}
