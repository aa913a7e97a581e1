import { z } from 'zod';
import { ApiError } from './errors.ts';

/**
 * Paging of every list that grows with a guide. A page is read by keyset, not by offset: the cursor
 * holds the sort key of the last item served, so reading page 80 costs what page 1 does, and an
 * edit between two pages neither repeats nor skips an item that stayed put.
 *
 * The cursor is opaque to clients (base64url JSON) and carries the name of the list and of its
 * filters: sent to another list, or with other filters, it is refused rather than silently read
 * from the wrong place.
 */

/** One value of a sort key: an order number, a name, an id. */
export type SortValue = string | number | null;

export interface PageSize {
  /** Items a page holds when the caller says nothing: chosen so a default answer fits a model. */
  default: number;
  /** The most a caller may ask for. */
  max: number;
}

export interface PageRequest {
  /** The sort key after which this page starts; undefined for the first page. */
  after: readonly SortValue[] | undefined;
  limit: number;
}

/** The input fields of a paged list: `cursor` and `limit`, spread into its input object. */
export function pageInputShape(size: PageSize) {
  return {
    cursor: z
      .string()
      .min(1)
      .max(1000)
      .optional()
      .describe("The previous answer's nextCursor, to read the page after it; omit for the first page"),
    limit: z
      .number()
      .int()
      .min(1)
      .max(size.max)
      .optional()
      .describe(`Items per page, at most ${size.max}; ${size.default} when omitted`),
  };
}

/** The output fields every paged list adds beside its own (the specification's fields stay as they are). */
export const pageOutputShape = {
  total: z.number().int().describe('How many items match in all, across every page'),
  nextCursor: z
    .string()
    .optional()
    .describe('Present when more items follow: send it back as cursor to read the next page'),
};

export interface Page<T> {
  items: T[];
  total: number;
  nextCursor?: string;
}

/**
 * What a cursor sent with `scope` says: where the page starts. `scope` names the list and its filters
 * (`spots area=ar_1 archived=false`), so a cursor is only good for the list that made it.
 */
export function readPageRequest(
  input: { cursor?: string | undefined; limit?: number | undefined },
  size: PageSize,
  scope: string,
): PageRequest {
  const limit = input.limit ?? size.default;
  if (input.cursor === undefined) return { after: undefined, limit };
  return { after: decodeCursor(input.cursor, scope), limit };
}

/**
 * A page from rows read in order with one more than the limit (`limit + 1`): the extra row only says
 * that more follow. `sortKey` gives the key a cursor resumes after.
 */
export function pageOf<T>(
  rows: readonly T[],
  request: PageRequest,
  total: number,
  scope: string,
  sortKey: (item: T) => readonly SortValue[],
): Page<T> {
  if (rows.length <= request.limit) return { items: [...rows], total };
  const items = rows.slice(0, request.limit);
  const last = items[items.length - 1] as T;
  return { items, total, nextCursor: encodeCursor(sortKey(last), scope) };
}

/**
 * A page of a list held whole in memory, already in order (a list the guide bounds, or one computed
 * rather than stored, such as readiness findings). The cursor holds the position served up to.
 */
export function pageOfList<T>(
  all: readonly T[],
  input: { cursor?: string | undefined; limit?: number | undefined },
  size: PageSize,
  scope: string,
): Page<T> {
  const request = readPageRequest(input, size, scope);
  const start = request.after === undefined ? 0 : Number(request.after[0]);
  if (!Number.isInteger(start) || start < 0) throw badCursor();
  const end = start + request.limit;
  const page: Page<T> = { items: all.slice(start, end), total: all.length };
  if (end < all.length) page.nextCursor = encodeCursor([end], scope);
  return page;
}

export function encodeCursor(after: readonly SortValue[], scope: string): string {
  return Buffer.from(JSON.stringify([scope, ...after])).toString('base64url');
}

function decodeCursor(cursor: string, scope: string): SortValue[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badCursor();
  }
  if (!Array.isArray(parsed) || parsed.length < 2 || !parsed.every(isSortValue)) throw badCursor();
  const [madeFor, ...after] = parsed as SortValue[];
  if (madeFor !== scope) {
    throw new ApiError(
      'invalid_argument',
      'cursor: it was made for another list or other filters; send the same filters as the call that answered it, or omit cursor to start again',
    );
  }
  return after;
}

function isSortValue(value: unknown): value is SortValue {
  return value === null || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

function badCursor(): ApiError {
  return new ApiError(
    'invalid_argument',
    "cursor: not a cursor this service made; send a previous answer's nextCursor unchanged, or omit cursor to start again",
  );
}
