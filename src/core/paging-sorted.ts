import { type Page, type PageSize, pageOf, readPageRequest, type SortValue } from './paging.ts';

/** Orders two sort keys value by value: null first, numbers by value, text by localeCompare. */
export function compareSortKeys(a: readonly SortValue[], b: readonly SortValue[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? null;
    const y = b[i] ?? null;
    if (x === y) continue;
    if (x === null) return -1;
    if (y === null) return 1;
    const order =
      typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y)) || (x < y ? -1 : 1);
    if (order !== 0) return order;
  }
  return 0;
}

/**
 * A page of a list computed in memory and sorted by `sortKey` (compareSortKeys order), read by
 * keyset like a stored list: the cursor holds the key of the last item served, not a position.
 * For lists an assistant works through while it reads them (readiness findings): items it fixed
 * on one page leave the list, and a position would then skip as many unread items on the next.
 */
export function pageOfSortedList<T>(
  all: readonly T[],
  input: { cursor?: string | undefined; limit?: number | undefined },
  size: PageSize,
  sortKey: (item: T) => readonly SortValue[],
): Page<T> {
  const request = readPageRequest(input, size);
  const { after } = request;
  const start = after === undefined ? 0 : all.findIndex((item) => compareSortKeys(sortKey(item), after) > 0);
  const rest = start < 0 ? [] : all.slice(start, start + request.limit + 1);
  return pageOf(rest, request, all.length, sortKey);
}
