import {
  type Page,
  type PageRequest,
  type PageSize,
  pageOf,
  readPageRequest,
  rowsAndTotal,
  type SortValue,
} from './paging.ts';
import type { Stores } from './stores.ts';

/** A list of a guide's records read by keyset, page by page (src/core/paging.ts, src/db/keyset.ts). */
export interface GuideList<Row, Item> {
  /** The list and its filters: pages and totals are kept under them. */
  scope: string;
  /** What else shapes an answer without moving the order (the view, tracks): pages are kept apart by it. */
  variant: string;
  size: PageSize;
  /** Up to `request.limit + 1` rows after `request.after`, in the list's order. */
  read(guideId: string, request: PageRequest): Promise<Row[]>;
  /** How many rows the filters match in all. */
  count(guideId: string): Promise<number>;
  /** The row's place in the order, which a cursor resumes after. */
  sortKey(row: Row): readonly SortValue[];
  present(row: Row): Item;
}

/**
 * A page of the caller's guide, shaped by `answer`, kept while the guide's revision stands still
 * (guides.cachedView): every write to the guide moves the revision, so a page is never served after
 * a write it does not show. The total is kept per revision too, so walking a list counts it once.
 * A guide of another creator is the same 404 as a missing one. For reads outside a transaction.
 */
export function guidePage<Row, Item, Answer extends object>(
  stores: Stores,
  creatorId: string,
  productId: string,
  list: GuideList<Row, Item>,
  input: { cursor?: string | undefined; limit?: number | undefined },
  answer: (guideId: string, page: Page<Item>) => Answer,
): Promise<Answer> {
  const request = readPageRequest(input, list.size);
  // JSON, so that no filter text can make two pages' keys alike.
  const key = `page ${JSON.stringify([list.scope, list.variant, request.limit, input.cursor ?? null])}`;
  // A promise as ever (handlers are typed to return one); a kept page is one already resolved.
  return Promise.resolve(
    stores.guides.cachedView(creatorId, productId, key, async (guideId, sibling) => {
      const totalKey = `total ${JSON.stringify(list.scope)}`;
      const [rows, total] = await rowsAndTotal(
        request,
        () => list.read(guideId, request),
        async (known) => {
          const kept = await sibling(totalKey, async () => ({ n: known ?? (await list.count(guideId)) }));
          return kept.n;
        },
      );
      // The cursor holds the row's sort key; the byte budget measures what the client receives.
      const sortKeys = new Map(rows.map((row) => [list.present(row), list.sortKey(row)]));
      const items = [...sortKeys.keys()];
      return answer(
        guideId,
        pageOf(items, request, total, (item) => sortKeys.get(item) ?? []),
      );
    }),
  );
}

/** The paging fields of an answer: the total, and the cursor of the next page when there is one. */
export function pageFields(page: Page<unknown>): { total: number; nextCursor?: string } {
  return page.nextCursor === undefined ? { total: page.total } : { total: page.total, nextCursor: page.nextCursor };
}
