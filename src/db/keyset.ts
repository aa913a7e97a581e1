import { type Expression, type SqlBool, sql } from 'kysely';
import { badCursor, type PageRequest, type SortValue } from '../core/paging.ts';
import type { Dialect } from './store-interface.ts';

/** A sort column: its SQL name, and whether it runs from the largest value down. */
export type SortColumn = string | { column: string; descending: true };

const nameOf = (c: SortColumn) => (typeof c === 'string' ? c : c.column);
const descends = (c: SortColumn) => typeof c !== 'string';

/**
 * Rows strictly after `after` in the order of `columns`: `(a, b, c) > (x, y, z)` when every column
 * ascends (one comparison an index on those columns answers), spelled out column by column when
 * one descends.
 */
function after(columns: readonly SortColumn[], values: readonly SortValue[]): Expression<SqlBool> {
  if (columns.every((c) => !descends(c))) {
    const refs = sql.join(columns.map((c) => sql.ref(nameOf(c))));
    return sql<SqlBool>`(${refs}) > (${sql.join(values.map((v) => sql.val(v)))})`;
  }
  const alternatives = columns.map((column, i) => {
    const equal = columns.slice(0, i).map((c, j) => sql`${sql.ref(nameOf(c))} = ${values[j]}`);
    const beyond = sql`${sql.ref(nameOf(column))} ${sql.raw(descends(column) ? '<' : '>')} ${values[i]}`;
    return sql`(${sql.join([...equal, beyond], sql` and `)})`;
  });
  return sql<SqlBool>`(${sql.join(alternatives, sql` or `)})`;
}

/** The query builder calls a keyset page needs, whatever the query selects. */
interface Orderable<Q> {
  where(expression: Expression<SqlBool>): Q;
  orderBy(expression: Expression<unknown>, direction?: 'asc' | 'desc'): Q;
  limit(limit: number): Q;
}

/**
 * One page of `query` by keyset: ordered by `columns` (the last one unique), starting after the
 * cursor's key, one row more than the limit so that the caller knows whether more follow. With an
 * index on the filter columns then `columns`, page 80 costs what page 1 does.
 */
export function keysetPage<Q extends Orderable<Q>>(query: Q, columns: readonly SortColumn[], request: PageRequest): Q {
  let q = query;
  if (request.after !== undefined) {
    // A position of another length was sealed by a version of the service that ordered this list otherwise.
    if (request.after.length !== columns.length) throw badCursor();
    q = q.where(after(columns, request.after));
  }
  for (const c of columns) q = q.orderBy(sql.ref(nameOf(c)), descends(c) ? 'desc' : 'asc');
  return q.limit(request.limit + 1);
}

/**
 * `column` holds `text`, any case. Both sides are folded the same way on both stores: the text here
 * with JavaScript's toLowerCase, the column by PostgreSQL's lower() or, on the embedded store, by
 * fold_case (the same toLowerCase, registered by the adapter: SQLite's own lower() knows only ASCII).
 */
export function nameContains(dialect: Dialect, column: string, text: string): Expression<SqlBool> {
  const folded = dialect === 'postgres' ? sql`lower(${sql.ref(column)})` : sql`fold_case(${sql.ref(column)})`;
  return sql<SqlBool>`${dialect === 'postgres' ? sql`strpos` : sql`instr`}(${folded}, ${text.toLowerCase()}) > 0`;
}
