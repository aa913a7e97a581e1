import type { Kysely } from 'kysely';
import type { Coordination } from '../db/coordination.ts';
import { onBehalfOf } from '../db/fair-turns.ts';
import { retryingStalePlans } from '../db/stale-plans.ts';
import type { Dialect } from '../db/store-interface.ts';
import type { Database } from '../db/tables.ts';
import { then } from './at-once.ts';
import { type Principal, requireScope } from './auth.ts';
import type { Caches } from './caches.ts';
import type { Clock } from './clock.ts';
import type { CursorSeal } from './cursor-seal.ts';
import type { GuideAccess, OwnedGuide } from './guide-access.ts';
import { inChange, type OpenChange } from './history.ts';
import { plainHttpWarnings } from './link-warnings.ts';
import type { Log } from './log.ts';
import type { AnyOperation, CallContext, OperationContext, Upload, Urls } from './operation.ts';
import { jobRunning, type RateLimitOutcome, type RateLimits } from './rate-limit.ts';
import { deleteReferences, type ReferenceKind, type ReferenceStep } from './references.ts';
import type { Services } from './services.ts';
import type { StoreScope, Stores } from './stores.ts';
import { parseInput } from './validation.ts';

/**
 * What every call needs, whichever transport carried it; built once per app (buildApp), so that
 * two apps in one process share nothing they keep.
 */
export interface Runtime {
  db: Kysely<Database>;
  dialect: Dialect;
  clock: Clock;
  urls: Urls;
  rateLimits: RateLimits;
  log: Log;
  /** Every resource's stores, built lazily per call (see core/stores.ts); they keep what they cache in `caches`. */
  stores: (scope: StoreScope) => Stores;
  /** What this app keeps in memory between calls (see core/caches.ts). */
  caches: Caches;
  /** Every resource's declared references, by the kind of record they point at (see core/references.ts). */
  references: ReadonlyMap<ReferenceKind, readonly ReferenceStep<OperationContext>[]>;
  guides: GuideAccess;
  services: Services;
  /** Which jobs run now on any instance (operations declared `exclusive`). */
  coordination: Pick<Coordination, 'exclusive'>;
  /** Opens the cursor a call sends and seals the one it answers (see core/cursor-seal.ts). */
  cursors: CursorSeal;
  /** Whether writes are recorded in their guide's history: always, but in a benchmark measuring its cost. */
  history: boolean;
}

export interface Call {
  principal: Principal;
  requestId: string;
  log: Log;
  uploads?: readonly Upload[];
  /**
   * What an earlier call of the same request spent from the rate limits: a page that shows several
   * operations' answers (the studio's History page) pays once, not once per operation.
   */
  paid?: RateLimitOutcome;
  /**
   * Where the embedded store's commit stamp reads stood as the request arrived (stampReadsOf, taken
   * before its key is checked): a read-only call's cached reads are confirmed by a stamp read since.
   */
  arrival?: number | undefined;
}

export interface Invocation {
  result: Record<string, unknown>;
  rate: RateLimitOutcome;
}

const NO_UPLOADS: readonly Upload[] = Object.freeze([]);

/**
 * Runs one operation: rate limits, scope, validation, the cursor sent opened (and the one answered
 * sealed: core/cursor-seal.ts), the work that must stay outside the store's transaction, then the
 * handler. Writes run inside one transaction so that a refusal or a crash half-way leaves the
 * store as it was; the guides a write opened are stamped once, before commit.
 * An operation declared `exclusive` runs only while the same job runs nowhere else, from its own
 * rate limit to its commit; a call that finds it running is refused with rate_limited.
 */
export function invoke(
  runtime: Runtime,
  operation: AnyOperation,
  rawInput: unknown,
  call: Call,
  onRate?: (rate: RateLimitOutcome) => void,
): Invocation | Promise<Invocation> {
  // The store's connections are shared fairly among creators (db/fair-turns.ts).
  return onBehalfOf(call.principal.creatorId, () => invokeAsCaller(runtime, operation, rawInput, call, onRate));
}

/** The invocation, or its refusal as a rejected promise (never thrown). */
function invokeAsCaller(
  runtime: Runtime,
  operation: AnyOperation,
  rawInput: unknown,
  call: Call,
  onRate: ((rate: RateLimitOutcome) => void) | undefined,
): Invocation | Promise<Invocation> {
  try {
    return then(call.paid ?? runtime.rateLimits.consume(call.principal), (rate) => {
      onRate?.(rate);
      requireScope(call.principal, operation.scope, operation.name);
      const input = parseInput(operation.input, rawInput ?? {}, !operation.readOnly);
      return then(runtime.cursors.open(operation.name, call.principal.creatorId, input), (paged) =>
        then(answerOf(runtime, operation, input, call), (answer) =>
          then(paged.seal(answer), (result): Invocation => ({ result, rate })),
        ),
      );
    });
  } catch (err) {
    return Promise.reject(err);
  }
}

/** The operation run, alone in its job when it is declared `exclusive`. */
function answerOf(
  runtime: Runtime,
  operation: AnyOperation,
  input: Record<string, unknown>,
  call: Call,
): Record<string, unknown> | Promise<Record<string, unknown>> {
  const exclusive = operation.exclusive;
  if (!exclusive) return run(runtime, operation, input, call);
  const job = `${operation.name} ${exclusive.job(input, call.principal)}`;
  return runtime.coordination
    .exclusive(job, async () => run(runtime, operation, input, call))
    .then((outcome) => {
      if (!outcome.ran) throw jobRunning(exclusive.running, exclusive.retryAfterMs);
      return outcome.value;
    });
}

/**
 * A plain read (no limit of its own, nothing to prepare) answers as soon as its handler does;
 * anything else runs in full (`runFully`).
 */
function run(
  runtime: Runtime,
  operation: AnyOperation,
  input: Record<string, unknown>,
  call: Call,
): Record<string, unknown> | Promise<Record<string, unknown>> {
  if (!operation.readOnly || operation.rateLimit || operation.prepare) return runFully(runtime, operation, input, call);
  const { base, answered } = callContext(runtime, operation, input, call);
  const committed: Array<() => Promise<unknown>> = [];
  const ctx = contextOn(runtime, base, { db: runtime.db, writes: false, committed, arrival: call.arrival });
  return then(operation.handler(input, ctx, undefined), (result) => finished(committed, base, result, answered));
}

/** The call's context as its handler sees it, and how its answer carries the warnings it gathered. */
function callContext(
  runtime: Runtime,
  operation: AnyOperation,
  input: Record<string, unknown>,
  call: Call,
): { base: CallContext; answered: (result: Record<string, unknown>) => Record<string, unknown> } {
  // Made on the first warning: most calls have none.
  let warnings: string[] | undefined = operation.readOnly ? undefined : plainHttpWarnings(input);
  const base: CallContext = {
    principal: call.principal,
    clock: runtime.clock,
    urls: runtime.urls,
    requestId: call.requestId,
    log: call.log,
    uploads: call.uploads ?? NO_UPLOADS,
    services: runtime.services,
    warn: (message) => {
      if (warnings === undefined) warnings = [message];
      else if (!warnings.includes(message)) warnings.push(message);
    },
  };
  // A copy, never a change: a read may answer a frozen record served to every caller.
  const answered = (result: Record<string, unknown>) =>
    warnings !== undefined && warnings.length > 0 ? { ...result, warnings } : result;
  return { base, answered };
}

/** The answer, once the work that waited for the commit ran (at once when there is none). */
function finished(
  committed: Array<() => Promise<unknown>>,
  base: CallContext,
  result: Record<string, unknown>,
  answered: (result: Record<string, unknown>) => Record<string, unknown>,
): Record<string, unknown> | Promise<Record<string, unknown>> {
  if (committed.length === 0) return answered(result);
  return (async () => {
    for (const work of committed) await work().catch((e) => base.log.error({ err: e }, 'after-commit work failed'));
    return answered(result);
  })();
}

/** The operation's own limit, its preparation, its handler and what waits for the commit. */
async function runFully(
  runtime: Runtime,
  operation: AnyOperation,
  input: Record<string, unknown>,
  call: Call,
): Promise<Record<string, unknown>> {
  if (operation.rateLimit) {
    await runtime.rateLimits.consumeFor(operation.rateLimit.policy, operation.rateLimit.key(input, call.principal));
  }
  const { base, answered } = callContext(runtime, operation, input, call);
  // A write commits after the call arrived: its reads confirm against a stamp read now.
  const arrival = operation.readOnly ? call.arrival : undefined;
  // Reads outside the transaction: what prepare reads, the handler reads again after opening the guide.
  const prepared = operation.prepare
    ? await operation.prepare(
        input,
        contextOn(runtime, base, { db: runtime.db, writes: false, committed: [], arrival }),
      )
    : undefined;
  let result: Record<string, unknown>;
  const committed: Array<() => Promise<unknown>> = [];
  if (operation.readOnly) {
    result = await operation.handler(
      input,
      contextOn(runtime, base, { db: runtime.db, writes: false, committed, arrival }),
      prepared,
    );
  } else {
    try {
      // Every write is one change in its guide's history, recorded in its own transaction.
      const author = { operation: operation.name, principal: call.principal, at: runtime.clock.now() };
      const write = async (trx: Kysely<Database>, change: OpenChange | undefined) => {
        const opened = new Map<string, Promise<OwnedGuide>>();
        const answer = await operation.handler(
          input,
          contextOn(runtime, base, { db: trx, writes: true, committed, opened, change }),
          prepared,
        );
        if (change !== undefined) {
          const first = opened.values().next().value;
          const closed = change.close({ ...author, guideId: first === undefined ? undefined : (await first).id });
          if (closed) await closed;
        }
        return answer;
      };
      result = await retryingStalePlans(() => {
        committed.length = 0;
        return runtime.history
          ? inChange(runtime.db, runtime.dialect, write, author)
          : runtime.db.transaction().execute((trx) => write(trx, undefined));
      });
    } catch (err) {
      if (operation.discard)
        await operation.discard(prepared, base).catch((e) => base.log.error({ err: e }, 'discard failed'));
      throw err;
    }
  }
  return finished(committed, base, result, answered);
}

function scopeOn(runtime: Runtime, db: Kysely<Database>, arrival: number | undefined): StoreScope {
  return { db, clock: runtime.clock, dialect: runtime.dialect, arrival };
}

/** The handler's context on a connection; a write stamps each guide it opens, once. */
function contextOn(
  runtime: Runtime,
  base: CallContext,
  {
    db,
    writes,
    committed,
    opened,
    arrival,
    change,
  }: {
    db: Kysely<Database>;
    writes: boolean;
    committed: Array<() => Promise<unknown>>;
    /** A read-only call's arrival (Call.arrival). */
    arrival?: number | undefined;
    /** The guides the call opened, by the id it gave (the write's history is its first one's). */
    opened?: Map<string, Promise<OwnedGuide>>;
    /** The write's change, told of the first guide it opens. */
    change?: OpenChange | undefined;
  },
): OperationContext {
  const { creatorId } = base.principal;
  let guides = opened;
  const ctx: OperationContext = {
    ...base,
    stores: runtime.stores(scopeOn(runtime, db, arrival)),
    afterCommit: (work) => committed.push(work),
    deleteReferencesTo(kind, target) {
      if (!writes) throw new Error(`deleteReferencesTo('${kind}') runs in a write's transaction only`);
      return deleteReferences(runtime.references, kind, target, ctx);
    },
    guide(productId) {
      // Made on the first guide opened: a cached read opens none.
      guides ??= new Map();
      let guide = guides.get(productId);
      if (!guide) {
        // The first guide a write opens names its change, before the handler goes on to touch a row.
        const names = change !== undefined && guides.size === 0 ? change : undefined;
        guide = runtime.guides.open(db, creatorId, productId, writes ? runtime.clock.now() : undefined, names);
        guides.set(productId, guide);
      }
      return guide;
    },
  };
  return ctx;
}
