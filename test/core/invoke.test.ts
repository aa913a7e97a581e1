import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import type { Principal } from '../../src/core/auth.ts';
import { CursorSeal } from '../../src/core/cursor-seal.ts';
import { type Call, invoke, type Runtime } from '../../src/core/invoke.ts';
import type { AnyOperation } from '../../src/core/operation.ts';
import type { RateLimitOutcome } from '../../src/core/rate-limit.ts';

const principal: Principal = { keyId: 'key_1', creatorId: 'cr_1', scope: 'read', publish: false, role: 'owner' };
const rate = {} as RateLimitOutcome;

/** Only what a plain read's invocation reaches: the rate limits (counted at once here), the cursor seal, the stores. */
const runtime = {
  rateLimits: { consume: () => rate },
  cursors: new CursorSeal(async () => Buffer.alloc(32)),
  stores: () => ({}),
} as unknown as Runtime;

function read(handler: AnyOperation['handler']): AnyOperation {
  return {
    name: 'read_thing',
    scope: 'read',
    readOnly: true,
    input: z.strictObject({ id: z.string() }),
    handler,
  } as AnyOperation;
}

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
