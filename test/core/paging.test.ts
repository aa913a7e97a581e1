import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '../../src/core/errors.ts';
import { encodeCursor, pageOf, pageOfList, readPageRequest, rowsAndTotal } from '../../src/core/paging.ts';

const size = { default: 2, max: 5 };

describe('paging', () => {
  it('reads a first page, then resumes after the last sort key the cursor holds', () => {
    const rows = [
      { id: 'a', order: 1 },
      { id: 'b', order: 2 },
      { id: 'c', order: 3 },
    ];
    const first = readPageRequest({}, size);
    assert.deepEqual(first, { after: undefined, limit: 2 });
    const page = pageOf(rows, first, 3, (r) => [r.order, r.id]);
    assert.deepEqual(page.items, rows.slice(0, 2));
    assert.equal(page.total, 3);
    assert.ok(page.nextCursor);
    assert.deepEqual(readPageRequest({ cursor: page.nextCursor }, size).after, [2, 'b']);
    const last = pageOf(rows.slice(2), readPageRequest({ cursor: page.nextCursor }, size), 3, (r) => [r.order, r.id]);
    assert.equal(last.nextCursor, undefined);
  });

  it('refuses a position of a shape no list of this version writes, naming the field', () => {
    for (const bad of ['not json', '[]', '{"a":1}', '[1e999]', '[[1]]', '[true]']) {
      assert.throws(
        () => readPageRequest({ cursor: bad }, size),
        (e: unknown) => e instanceof ApiError && e.code === 'invalid_argument' && e.message.startsWith('cursor:'),
        bad,
      );
    }
  });

  it('pages a list held in memory by position', () => {
    const all = ['a', 'b', 'c', 'd', 'e'];
    const one = pageOfList(all, { limit: 2 }, size);
    assert.deepEqual(one.items, ['a', 'b']);
    const two = pageOfList(all, { cursor: one.nextCursor, limit: 2 }, size);
    assert.deepEqual(two.items, ['c', 'd']);
    const three = pageOfList(all, { cursor: two.nextCursor, limit: 2 }, size);
    assert.deepEqual(three, { items: ['e'], total: 5 });
  });

  it('ends a page early when its items pass the byte budget, never with nothing in it', () => {
    const rows = Array.from({ length: 5 }, (_, i) => ({ id: i, text: 'x'.repeat(100) }));
    const request = readPageRequest({ limit: 5 }, size);
    const page = pageOf(rows, request, 5, (r) => [r.id], 250);
    assert.deepEqual(
      page.items.map((r) => r.id),
      [0, 1],
    );
    assert.deepEqual(readPageRequest({ cursor: page.nextCursor }, size).after, [1]);
    const alone = pageOf(rows, request, 5, (r) => [r.id], 10);
    assert.equal(alone.items.length, 1, 'one item too big for the budget still makes a page');
    const listed = pageOfList(rows, { limit: 5 }, size, 250);
    assert.equal(listed.items.length, 2);
    assert.deepEqual(pageOfList(rows, { cursor: listed.nextCursor, limit: 5 }, size, 250).items[0], rows[2]);
  });

  it('takes a first page that holds the whole list as its total, and counts only a longer list', async () => {
    const asked: Array<number | undefined> = [];
    const count = async (known: number | undefined) => {
      asked.push(known);
      return known ?? 7;
    };
    const first = readPageRequest({}, size);
    assert.deepEqual(await rowsAndTotal(first, async () => ['a', 'b'], count), [['a', 'b'], 2]);
    // Three rows for a limit of two: more follow, so the store counts them.
    assert.deepEqual(await rowsAndTotal(first, async () => ['a', 'b', 'c'], count), [['a', 'b', 'c'], 7]);
    const later = readPageRequest({ cursor: encodeCursor([2, 'b']) }, size);
    assert.deepEqual(await rowsAndTotal(later, async () => ['c'], count), [['c'], 7]);
    assert.deepEqual(asked, [2, undefined, undefined]);
  });
});
