import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareSortKeys, pageOfSortedList } from '../../src/core/paging-sorted.ts';

const size = { default: 2, max: 5 };
const keyOf = (item: { rank: number; name: string }) => [item.rank, item.name];

describe('paging a sorted list held in memory', () => {
  const all = [
    { rank: 0, name: 'a' },
    { rank: 0, name: 'b' },
    { rank: 1, name: 'a' },
    { rank: 1, name: 'c' },
    { rank: 1, name: 'd' },
  ];

  it('reads page after page by the last key served, total over all', () => {
    const first = pageOfSortedList(all, {}, size, keyOf);
    assert.deepEqual(first.items, all.slice(0, 2));
    assert.equal(first.total, 5);
    const second = pageOfSortedList(all, { cursor: first.nextCursor }, size, keyOf);
    assert.deepEqual(second.items, all.slice(2, 4));
    const third = pageOfSortedList(all, { cursor: second.nextCursor, limit: 5 }, size, keyOf);
    assert.deepEqual(third.items, all.slice(4));
    assert.equal(third.nextCursor, undefined);
  });

  it('skips nothing when items already served left the list between two pages', () => {
    const first = pageOfSortedList(all, {}, size, keyOf);
    const fixed = all.slice(2); // both items of the first page were fixed
    const next = pageOfSortedList(fixed, { cursor: first.nextCursor }, size, keyOf);
    assert.deepEqual(next.items, all.slice(2, 4));
    assert.equal(next.total, 3);
  });

  it('answers an empty last page when everything after the cursor went', () => {
    const first = pageOfSortedList(all, {}, size, keyOf);
    const page = pageOfSortedList(all.slice(0, 2), { cursor: first.nextCursor }, size, keyOf);
    assert.deepEqual(page.items, []);
    assert.equal(page.nextCursor, undefined);
  });

  it('orders null first, numbers by value, text by locale and then by code unit', () => {
    assert.ok(compareSortKeys([null], [0]) < 0);
    assert.ok(compareSortKeys([2], [10]) < 0);
    assert.ok(compareSortKeys(['b'], ['B']) !== 0);
    assert.equal(compareSortKeys([1, 'x'], [1, 'x']), 0);
    assert.ok(compareSortKeys([1, 'x'], [1, 'x', 'y']) < 0);
  });
});
