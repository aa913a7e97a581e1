import { z } from 'zod';
import { ApiError } from './errors.ts';

/**
 * Paging of every list that grows with a guide. A page is read by keyset, not by offset: the cursor
 * holds the sort key of the last item served, so reading page 80 costs what page 1 does, and an
 * edit between two pages neither repeats nor skips an item that stayed put.
 *
 * What this module reads and writes is the position a cursor stands for (the sort key, as JSON).
 * Clients never see it: `invoke` seals each answer's `nextCursor` for the list, filters and creator
 * of its call and opens the cursor a call sends before any list reads it (core/cursor-seal.ts), so
 * a position reaching these functions is one this service made for this very list.
 */

/** One value of a sort key: an order number, a name, an id. */
export type SortValue = string | number | null;

export interface PageSize {
  /** Items a page holds when the caller says nothing: chosen so a default answer fits a model. */
  default: number;
  /** The most a caller may ask for. */
  max: number;
}

/**
 * The JSON a page's items may fill before the page ends early (at least one item is always served).
 * An MCP client receives a result once, as escaped text in a JSON-RPC envelope: at most about 1.2x
 * its JSON (test/paging/answer-sizes.test.ts), so 96 KB of items keeps every page near 120 KB as a
 * client receives it, whatever the records hold. The budget was set when MCP sent each result
 * twice; it stays, so what a model reads per page did not grow (a larger one is a choice about
 * pages, not about the transport).
 */
export const PAGE_BYTES = 96 * 1024;

/** `view`: the whole records, or the few fields that pick one (each list says which). */
export const viewField = z
  .enum(['full', 'compact'])
  .optional()
  .describe('compact: a few fields a record; default full');

export type View = 'full' | 'compact';

/** `nameContains`: a case-insensitive part of the name. */
export const nameContainsField = z.string().min(1).max(120).optional().describe('Name holds this, any case');

export interface PageRequest {
  /** The sort key after which this page starts; undefined for the first page. */
  after: readonly SortValue[] | undefined;
  limit: number;
}

/**
 * The longest cursor taken. The longest position a list writes is a place's sort name: 120
 * characters that may each unfold into many (NFKD spells U+FDFA in 18 letters, digits are padded
 * to 12), about 4 KB, sealed into about 5,400 characters; every cursor the service issues must
 * read on.
 */
const CURSOR_MAX = 8000;

/** The input fields of a paged list: `cursor` and `limit`, spread into its input object. */
export function pageInputShape(size: PageSize) {
  return {
    cursor: z.string().min(1).max(CURSOR_MAX).optional().describe("The last answer's nextCursor, for the next page"),
    limit: z
      .number()
      .int()
      .min(1)
      .max(size.max)
      .optional()
      .describe(`Per page, at most ${size.max}; default ${size.default}`),
  };
}

/** The output fields every paged list adds beside its own (the specification's fields stay as they are). */
export const pageOutputShape = {
  total: z.number().int().describe('How many match in all'),
  nextCursor: z.string().optional().describe('More follow: send it as cursor'),
};

export interface Page<T> {
  items: T[];
  total: number;
  nextCursor?: string;
}

/** Where the page starts (the position the opened cursor holds) and how many it holds. */
export function readPageRequest(
  input: { cursor?: string | undefined; limit?: number | undefined },
  size: PageSize,
): PageRequest {
  const limit = input.limit ?? size.default;
  if (input.cursor === undefined) return { after: undefined, limit };
  return { after: decodeCursor(input.cursor), limit };
}

/**
 * A page from rows read in order with one more than the limit (`limit + 1`): the extra row only says
 * that more follow. `sortKey` gives the key a cursor resumes after.
 */
export function pageOf<T>(
  rows: readonly T[],
  request: PageRequest,
  total: number,
  sortKey: (item: T) => readonly SortValue[],
  maxBytes = PAGE_BYTES,
): Page<T> {
  const kept = withinBytes(rows, request.limit, maxBytes);
  if (kept === rows.length) return { items: [...rows], total };
  const items = rows.slice(0, kept);
  const last = items[items.length - 1] as T;
  return { items, total, nextCursor: encodeCursor(sortKey(last)) };
}

/**
 * A keyset page's rows (one more than the limit) and how many the list holds in all. Rows read for a
 * first page with none beyond its limit are the whole list, so they are its total and `count` is
 * given it, to keep rather than ask the store; only a longer list is counted, after its first page.
 * A later page counts beside its read.
 */
export async function rowsAndTotal<Row>(
  request: PageRequest,
  read: () => Promise<Row[]>,
  count: (known: number | undefined) => Promise<number>,
): Promise<[Row[], number]> {
  if (request.after !== undefined) return Promise.all([read(), count(undefined)]);
  const rows = await read();
  return [rows, await count(rows.length <= request.limit ? rows.length : undefined)];
}

/** How many of the first `limit` items fit in `maxBytes` of JSON; at least one. */
function withinBytes(items: readonly unknown[], limit: number, maxBytes: number): number {
  const most = Math.min(limit, items.length);
  let bytes = 0;
  for (let i = 0; i < most; i++) {
    bytes += Buffer.byteLength(JSON.stringify(items[i])) + 1;
    if (bytes > maxBytes && i > 0) return i;
  }
  return most;
}

/**
 * A page of a list held whole in memory, already in order (a list the guide bounds, or one computed
 * rather than stored, such as readiness findings). The cursor holds the position served up to.
 */
export function pageOfList<T>(
  all: readonly T[],
  input: { cursor?: string | undefined; limit?: number | undefined },
  size: PageSize,
  maxBytes = PAGE_BYTES,
): Page<T> {
  const request = readPageRequest(input, size);
  const start = request.after === undefined ? 0 : Number(request.after[0]);
  if (!Number.isInteger(start) || start < 0) throw badCursor();
  const candidates = all.slice(start, start + request.limit);
  const end = start + withinBytes(candidates, request.limit, maxBytes);
  const page: Page<T> = { items: all.slice(start, end), total: all.length };
  if (end < all.length) page.nextCursor = encodeCursor([end]);
  return page;
}

/** The position after `after`, as `invoke` seals it into a cursor. */
export function encodeCursor(after: readonly SortValue[]): string {
  return JSON.stringify(after);
}

/**
 * The position an opened cursor holds. Only a cursor this service sealed opens, so a position of
 * another shape comes from a version of the service that ordered the list otherwise: refused, as
 * a cursor of another list is.
 */
function decodeCursor(position: string): SortValue[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(position);
  } catch {
    throw badCursor();
  }
  if (!Array.isArray(parsed) || parsed.length < 1 || !parsed.every(isSortValue)) throw badCursor();
  return parsed;
}

function isSortValue(value: unknown): value is SortValue {
  return value === null || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

/** The one refusal of every cursor this service did not issue for the list and filters it came with. */
export function badCursor(): ApiError {
  return new ApiError(
    'invalid_argument',
    "cursor: not a cursor this service issued for this list and these filters; send a previous answer's nextCursor unchanged with the same fields as that call (any limit or view), or omit cursor to start again",
  );
}
