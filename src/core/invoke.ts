import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.ts';
import { plainHttpWarnings } from '../shared/urls.ts';
import { type Principal, requireScope } from './auth.ts';
import type { Clock } from './clock.ts';
import type { Log } from './log.ts';
import type { AnyOperation, OperationContext, Urls } from './operation.ts';
import type { RateLimitOutcome, RateLimits } from './rate-limit.ts';
import { parseInput } from './validation.ts';

/** What every call needs, whichever transport carried it; built once per process. */
export interface Runtime {
  db: Kysely<Database>;
  clock: Clock;
  urls: Urls;
  rateLimits: RateLimits;
  log: Log;
}

export interface Call {
  principal: Principal;
  requestId: string;
  log: Log;
}

export interface Invocation {
  result: Record<string, unknown>;
  rate: RateLimitOutcome;
}

/**
 * Runs one operation: rate limit, scope, validation, then the handler. Writes run inside one
 * transaction so that a refusal or a crash half-way leaves the store as it was.
 */
export async function invoke(
  runtime: Runtime,
  operation: AnyOperation,
  rawInput: unknown,
  call: Call,
  onRate?: (rate: RateLimitOutcome) => void,
): Promise<Invocation> {
  const rate = await runtime.rateLimits.consume(call.principal);
  onRate?.(rate);
  requireScope(call.principal, operation.scope, operation.name);
  const input = parseInput(operation.input, rawInput ?? {}, !operation.readOnly);
  const warnings: string[] = operation.readOnly ? [] : plainHttpWarnings(input);
  const context = (db: Kysely<Database>): OperationContext => ({
    principal: call.principal,
    db,
    clock: runtime.clock,
    urls: runtime.urls,
    requestId: call.requestId,
    log: call.log,
    warn: (message) => {
      if (!warnings.includes(message)) warnings.push(message);
    },
  });
  const result: Record<string, unknown> = operation.readOnly
    ? await operation.handler(input, context(runtime.db))
    : await runtime.db.transaction().execute((trx) => operation.handler(input, context(trx)));
  // A copy, never a change: a read may answer a frozen record served to every caller.
  return { result: warnings.length > 0 ? { ...result, warnings } : result, rate };
}
