import { z } from 'zod';
import type { Principal } from '../../src/core/auth.ts';
import { CursorSeal } from '../../src/core/cursor-seal.ts';
import type { Runtime } from '../../src/core/invoke.ts';
import type { AnyOperation } from '../../src/core/operation.ts';
import type { RateLimitOutcome } from '../../src/core/rate-limit.ts';

/** A plain read's call without an app: unit tests of what answers it at once (invoke, a REST route). */
export const principal: Principal = { keyId: 'key_1', creatorId: 'cr_1', scope: 'read', publish: false, role: 'owner' };
export const rate = {} as RateLimitOutcome;

/**
 * Only what a plain read's call reaches: the store (for its commit stamp's reads), the rate limits
 * (counted at once here), the cursor seal, the stores.
 */
export const runtime = {
  db: {},
  rateLimits: { consume: () => rate },
  cursors: new CursorSeal(async () => Buffer.alloc(32)),
  stores: () => ({}),
} as unknown as Runtime;

/** GET /things/{id}: reads one thing by its id. */
export function read(handler: AnyOperation['handler']): AnyOperation {
  return {
    name: 'read_thing',
    method: 'GET',
    path: '/things/{id}',
    pathParams: ['id'],
    scope: 'read',
    readOnly: true,
    successStatus: 200,
    input: z.strictObject({ id: z.string() }),
    handler,
  } as AnyOperation;
}
