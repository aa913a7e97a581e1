import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FairTurns, type GiveBack, onBehalfOf } from '../../src/db/fair-turns.ts';
import { ConnectionWaitTimeout } from '../../src/db/unavailable.ts';

/** Asks for a turn on behalf of `party`; records who got one, in order. */
function asker(turns: FairTurns, got: string[]) {
  return (party: string, label = party): Promise<GiveBack> =>
    onBehalfOf(party, () => turns.take()).then((giveBack) => {
      got.push(label);
      return giveBack;
    });
}

/** Lets every turn granted so far be recorded. */
const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('FairTurns: the store connections among creators', () => {
  test('while a connection is free, whoever asks gets it at once', async () => {
    const turns = new FairTurns(2, undefined);
    const got: string[] = [];
    const ask = asker(turns, got);
    await ask('a');
    await ask('b');
    assert.deepEqual(got, ['a', 'b']);
  });

  test("another creator's call gets the next connection given back, not the one after one creator's queue", async () => {
    const turns = new FairTurns(3, undefined);
    const got: string[] = [];
    const ask = asker(turns, got);
    const held = [await ask('walker'), await ask('walker'), await ask('walker')];
    const queued = [1, 2, 3, 4, 5].map((n) => ask('walker', `walker ${n}`));
    await settled();
    const other = ask('other');
    await settled();
    assert.deepEqual(got, ['walker', 'walker', 'walker'], 'every connection taken: all wait');
    held[0]?.();
    await other;
    assert.deepEqual(got.slice(3), ['other'], "the other creator's call went first");
    // The rest are the walker's, in the order they asked.
    held[1]?.();
    held[2]?.();
    (await other)();
    await settled();
    assert.deepEqual(got.slice(4), ['walker 1', 'walker 2', 'walker 3']);
    for (const giveBack of await Promise.all(queued.slice(0, 3))) giveBack();
    await Promise.all(queued);
    assert.deepEqual(got.slice(7), ['walker 4', 'walker 5']);
  });

  test('a connection given back goes to the waiting party that holds the fewest, then to the longest waiting', async () => {
    const turns = new FairTurns(4, undefined);
    const got: string[] = [];
    const ask = asker(turns, got);
    const a = [await ask('a'), await ask('a'), await ask('a')];
    const b = await ask('b');
    // They ask in this order: a (holding 3), b (holding 1), c (holding none), b again.
    const waiting = [ask('a', 'a 4'), ask('b', 'b 2'), ask('c'), ask('b', 'b 3')];
    await settled();
    a[0]?.();
    await settled();
    assert.equal(got.at(-1), 'c', 'c held none');
    a[1]?.();
    await settled();
    assert.equal(got.at(-1), 'a 4', 'a, b and c hold one each: the longest waiting, a');
    b();
    await settled();
    assert.equal(got.at(-1), 'b 2', 'b holds none now');
    a[2]?.();
    await settled();
    assert.equal(got.at(-1), 'b 3', 'the last one waiting');
    for (const giveBack of await Promise.all(waiting)) giveBack();
  });

  test('a wait past waitMs is refused as the store being busy, and leaves the queue', async () => {
    const turns = new FairTurns(1, 30);
    const got: string[] = [];
    const ask = asker(turns, got);
    const held = await ask('a');
    await assert.rejects(ask('b'), ConnectionWaitTimeout);
    const later = ask('c');
    held();
    await later;
    assert.deepEqual(got, ['a', 'c'], 'the refused call never got the connection');
  });

  test('a turn given back twice counts once', async () => {
    const turns = new FairTurns(1, undefined);
    const got: string[] = [];
    const ask = asker(turns, got);
    const held = await ask('a');
    const b = ask('b');
    const c = ask('c');
    held();
    held();
    await b;
    await settled();
    assert.deepEqual(got, ['a', 'b'], 'c still waits: the second give-back was ignored');
    (await b)();
    await c;
  });
});
