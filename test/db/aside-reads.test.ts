import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type AsideConnection, SharedReads } from '../../src/db/aside-reads.ts';

interface Row {
  id: string;
  revision: number;
}

/** An aside connection whose statements answer when the test says, from the table as it is then. */
function heldAside() {
  const table = new Map<string, number>();
  const sent: Array<{ keys: string[]; answer(): void }> = [];
  let open = true;
  const aside: AsideConnection = {
    read<R>(_text: string, values: unknown[]) {
      if (!open) return undefined;
      const keys = values[0] as string[];
      // The statement's snapshot: the table as it stands when the statement is sent.
      const rows = keys.flatMap((id) => (table.has(id) ? [{ id, revision: table.get(id) as number }] : []));
      return new Promise<R[]>((resolve) => sent.push({ keys, answer: () => resolve(rows as R[]) }));
    },
  };
  return {
    aside,
    table,
    sent,
    close: () => {
      open = false;
    },
  };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('SharedReads: one statement for the calls that asked together', () => {
  test('calls made together share one statement; those that come while it runs share the next', async () => {
    const held = heldAside();
    held.table.set('g1', 1).set('g2', 7);
    const reads = new SharedReads<Row>(held.aside, 'select', (row) => row.id);
    const first = [reads.get('g1'), reads.get('g2')];
    assert.equal(held.sent.length, 0, 'sent once the event loop has taken in the calls that came with it');
    await settled();
    assert.deepEqual(held.sent[0]?.keys, ['g1', 'g2']);
    const later = [reads.get('g1'), reads.get('g2'), reads.get('g1'), reads.get('gone')];
    await settled();
    assert.equal(held.sent.length, 1, 'the later calls wait for the statement under way');
    held.sent[0]?.answer();
    assert.deepEqual(await Promise.all(first), [
      { id: 'g1', revision: 1 },
      { id: 'g2', revision: 7 },
    ]);
    await settled();
    assert.equal(held.sent.length, 2);
    assert.deepEqual(held.sent[1]?.keys, ['g1', 'g2', 'gone'], 'one statement, each key once');
    held.sent[1]?.answer();
    assert.deepEqual(await Promise.all(later), [
      { id: 'g1', revision: 1 },
      { id: 'g2', revision: 7 },
      { id: 'g1', revision: 1 },
      null,
    ]);
  });

  test('a call made after a write never gets the answer of a statement sent before it', async () => {
    const held = heldAside();
    held.table.set('g', 1);
    const reads = new SharedReads<Row>(held.aside, 'select', (row) => row.id);
    const before = reads.get('g');
    await settled();
    assert.equal(held.sent.length, 1);
    // The write commits while that statement is under way, then a call asks.
    held.table.set('g', 2);
    const after = reads.get('g');
    held.sent[0]?.answer();
    assert.deepEqual(await before, { id: 'g', revision: 1 });
    await settled();
    held.sent[1]?.answer();
    assert.deepEqual(await after, { id: 'g', revision: 2 }, 'read by a statement sent after the call');
  });

  test('with the aside connection closed, each call is told to read for itself', async () => {
    const held = heldAside();
    held.close();
    const reads = new SharedReads<Row>(held.aside, 'select', (row) => row.id);
    assert.equal(await reads.get('g'), undefined);
  });

  test('a statement that fails tells its calls to read for themselves, and the next one is sent', async () => {
    let calls = 0;
    const aside: AsideConnection = {
      read<R>() {
        calls += 1;
        if (calls === 1) return Promise.reject<R[]>(new Error('connection lost'));
        return Promise.resolve([{ id: 'g', revision: 3 }] as R[]);
      },
    };
    const reads = new SharedReads<Row>(aside, 'select', (row) => row.id);
    assert.equal(await reads.get('g'), undefined);
    assert.deepEqual(await reads.get('g'), { id: 'g', revision: 3 });
  });
});
