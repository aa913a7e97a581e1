import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Call, invoke } from '../../src/core/invoke.ts';
import { principal, rate, read, runtime } from '../helpers/plain-read.ts';

const call: Call = { principal, requestId: 'rq_1', log: { error() {} } as unknown as Call['log'] };

describe('invoke', () => {
  it('answers a plain read whose every step has its value at once, without a promise', async () => {
    const answer = { id: 'th_1' };
    const invoked = invoke(
      runtime,
      read(() => answer),
      { id: 'th_1' },
      call,
    );
    // A cached read passes here on every call: each promise would be a turn of the microtask queue.
    assert.ok(!(invoked instanceof Promise));
    assert.equal(invoked.result, answer);
    assert.equal(invoked.rate, rate);
    const waited = invoke(
      runtime,
      read(async () => answer),
      { id: 'th_1' },
      call,
    );
    assert.ok(waited instanceof Promise, 'a handler that answers a promise');
    assert.equal((await waited).result, answer);
  });

  it('refuses with a rejected promise, never a throw', async () => {
    const refused = invoke(
      runtime,
      read(() => ({})),
      { id: 7 },
      call,
    );
    assert.ok(refused instanceof Promise);
    await assert.rejects(refused, { code: 'invalid_argument' });
    const failed = invoke(
      runtime,
      read(() => {
        throw new Error('handler failed');
      }),
      { id: 'th_1' },
      call,
    );
    assert.ok(failed instanceof Promise);
    await assert.rejects(failed, /handler failed/);
  });
});
