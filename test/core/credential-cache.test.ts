import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ManualClock } from '../../src/core/clock.ts';
import { CredentialCache, type RevocationWatch } from '../../src/core/credential-cache.ts';

/** A watch whose mark the test moves, and a store read that counts its calls. */
function setup(ttlMs: number) {
  const clock = new ManualClock('2026-11-23T10:00:00Z');
  const watch: RevocationWatch & { mark: string | undefined } = {
    mark: 'm1',
    revocationMark() {
      return this.mark;
    },
  };
  const cache = new CredentialCache<string>(watch, clock, ttlMs);
  let reads = 0;
  let expiresAt: number | null = null;
  const get = () =>
    cache.get('hash', async () => {
      reads += 1;
      return { value: `principal ${reads}`, expiresAt };
    });
  return {
    clock,
    watch,
    get,
    reads: () => reads,
    expireAt: (at: number | null) => {
      expiresAt = at;
    },
  };
}

describe('the credential cache', () => {
  test('answers a credential it holds without a promise, one it reads with one', async () => {
    const c = setup(2000);
    const read = c.get();
    assert.ok(read instanceof Promise, 'the first call reads the store');
    assert.equal(await read, 'principal 1');
    // Every authenticated call asks: a promise would cost it a turn of the microtask queue.
    assert.equal(c.get(), 'principal 1');
    c.watch.mark = 'm2';
    assert.ok(c.get() instanceof Promise, 'read again once the mark moved');
  });

  test('serves from memory while the mark stands and within the time to live', async () => {
    const c = setup(2000);
    assert.equal(await c.get(), 'principal 1');
    assert.equal(await c.get(), 'principal 1');
    c.clock.advance(1999);
    assert.equal(await c.get(), 'principal 1');
    assert.equal(c.reads(), 1);
    c.clock.advance(1);
    assert.equal(await c.get(), 'principal 2', 'the time to live has passed');
  });

  test('reads the store again once the mark moved, and whenever there is none', async () => {
    const c = setup(60_000);
    await c.get();
    c.watch.mark = 'm2';
    assert.equal(await c.get(), 'principal 2');
    assert.equal(await c.get(), 'principal 2');
    c.watch.mark = undefined;
    assert.equal(await c.get(), 'principal 3');
    assert.equal(await c.get(), 'principal 4', 'nothing is kept without a mark');
  });

  test('keeps nothing read while a revocation was heard', async () => {
    const clock = new ManualClock('2026-11-23T10:00:00Z');
    const watch = { mark: 'before', revocationMark: () => watch.mark };
    const cache = new CredentialCache<string>(watch, clock, 60_000);
    let reads = 0;
    const read = async () => {
      reads += 1;
      // The revocation lands while the row is being read.
      if (reads === 1) watch.mark = 'after';
      return { value: `read ${reads}`, expiresAt: null };
    };
    assert.equal(await cache.get('hash', read), 'read 1');
    assert.equal(await cache.get('hash', read), 'read 2', 'the first read was not kept');
    assert.equal(await cache.get('hash', read), 'read 2');
  });

  test('never serves a credential past its expiry, and refusals are not kept', async () => {
    const c = setup(60_000);
    c.expireAt(c.clock.now() + 500);
    await c.get();
    c.clock.advance(499);
    assert.equal(await c.get(), 'principal 1');
    c.clock.advance(1);
    assert.equal(await c.get(), 'principal 2');
    const clock = new ManualClock('2026-11-23T10:00:00Z');
    const cache = new CredentialCache<string>({ revocationMark: () => 'm' }, clock, 60_000);
    let refusals = 0;
    const refuse = async (): Promise<never> => {
      refusals += 1;
      throw new Error('revoked');
    };
    await assert.rejects(async () => cache.get('hash', refuse));
    await assert.rejects(async () => cache.get('hash', refuse));
    assert.equal(refusals, 2);
  });
});
