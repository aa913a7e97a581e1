import { createRequire } from 'node:module';
import type * as Flexible from 'rate-limiter-flexible';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { then } from './at-once.ts';
import type { Principal } from './auth.ts';
import { ApiError } from './errors.ts';
import type { RedisLink } from './redis-link.ts';

// rate-limiter-flexible's index loads every store it supports (cluster, Mongo, MySQL, Postgres...),
// and node:cluster and node:child_process with them: the limiters used are required one by one
// (a way its README shows), the Redis one only when REDIS_URL is set.
const require = createRequire(import.meta.url);
const RateLimiterMemory =
  require('rate-limiter-flexible/lib/RateLimiterMemory.js') as typeof Flexible.RateLimiterMemory;
const RateLimiterRes = require('rate-limiter-flexible/lib/RateLimiterRes.js') as typeof Flexible.RateLimiterRes;
type RateLimiterRes = Flexible.RateLimiterRes;
type MemoryOptions = ConstructorParameters<typeof Flexible.RateLimiterMemory>[0];

/**
 * A limiter over Redis when REDIS_URL is set, with this instance's memory as its insurance (what
 * rate-limiter-flexible answers from when Redis fails a command); in memory otherwise. The returned
 * function gives the limiter to ask now: the memory one, straight away, while Redis is known to be
 * away, so that calls do not each wait for it to fail.
 */
function limiterOf(
  options: MemoryOptions & { keyPrefix: string },
  link: RedisLink | undefined,
): () => RateLimiterAbstract {
  if (!link) {
    const own = new RateLimiterMemory(options);
    return () => own;
  }
  const own = new FallbackMemory(options, link);
  const RateLimiterRedis = require('rate-limiter-flexible/lib/RateLimiterRedis.js') as typeof Flexible.RateLimiterRedis;
  const shared = new RateLimiterRedis({
    ...options,
    keyPrefix: `rl:${options.keyPrefix}`,
    storeClient: link.client,
    useRedisPackage: false,
    insuranceLimiter: own,
  });
  return () => (link.usable ? shared : own);
}

/** This instance's memory standing in for Redis: every point counted here tells the link. */
class FallbackMemory extends RateLimiterMemory {
  private readonly link: RedisLink;

  constructor(options: MemoryOptions, link: RedisLink) {
    super(options);
    this.link = link;
  }

  override consume(...args: Parameters<RateLimiterAbstract['consume']>): Promise<RateLimiterRes> {
    this.link.fellBack();
    return super.consume(...args);
  }
}

export interface RateLimitState {
  policy: string;
  limit: number;
  remaining: number;
  resetMs: number;
  windowSeconds: number;
}

export interface RateLimitSettings {
  keyPerMinute: number;
  creatorPerHour: number;
  /** Photo uploads per key per minute (the specification names this limit). */
  uploadsPerKeyPerMinute: number;
  /** `check_links` runs per guide per hour (the specification names this limit too). */
  linkChecksPerGuidePerHour: number;
  /** Studio sign-in, sign-up and reset requests per client address per minute. */
  signInPerAddressPerMinute: number;
  /** Mails the studio sends one account (reset and confirmation links) per hour. */
  mailsPerAccountPerHour: number;
  /** OAuth client registrations (open, RFC 7591) per client address per hour. */
  registrationsPerAddressPerHour: number;
}

/**
 * The limits an operation may declare beside the per-key and per-creator ones every call pays,
 * the studio's (its form posts per address, its mail per account) and open OAuth registration's.
 */
export type OperationPolicy = 'uploads' | 'link-checks' | 'sign-in-address' | 'account-mails' | 'registrations';

/** The budget left after a call: the tighter of the policies, for the RateLimit headers. */
export interface RateLimitOutcome {
  tightest: RateLimitState;
  policies: RateLimitState[];
  /** The RateLimit-Policy field of `policies`, the same for every call: made once. */
  policiesField: string;
}

interface Policy {
  name: string;
  count: Counter;
  limit: number;
  windowSeconds: number;
  /** How the refusal names what ran out ("with this key this minute"). */
  scope: string;
}

/** One point spent: the points left, when the window ends, and whether the limit was passed. */
interface Spent {
  remaining: number;
  msBeforeNext: number;
  over: boolean;
}

/** Spends one point of a key: at once in this process's memory, through a promise over Redis. */
type Counter = (key: string) => Spent | Promise<Spent>;

/**
 * A fixed window a key, as rate-limiter-flexible's memory limiter counts (the window starts with
 * the key's first point and lasts `windowSeconds`; points past the limit are counted and refused),
 * without its promise and result object: every call spends from two of these, and the library's
 * `consume` was the largest step of a call's own work (docs/decisions/performance.md).
 */
export class MemoryWindows {
  private readonly windows = new Map<string, { points: number; endsAt: number }>();
  private readonly limit: number;
  private readonly windowMs: number;

  constructor(limit: number, windowSeconds: number) {
    this.limit = limit;
    this.windowMs = windowSeconds * 1000;
  }

  spend(key: string): Spent {
    const now = Date.now();
    const window = this.windows.get(key);
    if (window !== undefined && window.endsAt > now) {
      window.points += 1;
      return {
        remaining: Math.max(0, this.limit - window.points),
        msBeforeNext: window.endsAt - now,
        over: window.points > this.limit,
      };
    }
    const opened = { points: 1, endsAt: now + this.windowMs };
    this.windows.set(key, opened);
    // Forgotten when it ends (a timer a window, as the library's): the map holds only live windows.
    setTimeout(() => {
      if (this.windows.get(key) === opened) this.windows.delete(key);
    }, this.windowMs).unref();
    return { remaining: Math.max(0, this.limit - 1), msBeforeNext: this.windowMs, over: this.limit < 1 };
  }
}

/** A policy's counter: this process's memory, or Redis with the memory as its stand-in. */
function counterOf(options: MemoryOptions & { keyPrefix: string }, link: RedisLink | undefined): Counter {
  if (!link) {
    const windows = new MemoryWindows(options.points ?? 4, options.duration ?? 1);
    return (key) => windows.spend(key);
  }
  const limiter = limiterOf(options, link);
  return async (key) => {
    try {
      const res = await limiter().consume(key, 1);
      return { remaining: Math.max(0, res.remainingPoints), msBeforeNext: res.msBeforeNext, over: false };
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw err;
      return { remaining: 0, msBeforeNext: err.msBeforeNext, over: true };
    }
  };
}

/**
 * Per key per minute and per creator per hour. In memory by default; over Redis when several
 * instances share the load, so the same budget holds whichever instance answers.
 */
export class RateLimits {
  private readonly perKey: Policy;
  private readonly perCreator: Policy;
  private readonly ofOperations: Record<OperationPolicy, Policy>;
  private readonly redis: RedisLink | undefined;
  private readonly policiesField: string;

  constructor(settings: RateLimitSettings, redis?: RedisLink) {
    this.redis = redis;
    const policy = (name: string, prefix: string, limit: number, windowSeconds: number, scope: string): Policy => ({
      name,
      count: counterOf({ keyPrefix: prefix, points: limit, duration: windowSeconds }, redis),
      limit,
      windowSeconds,
      scope,
    });
    this.perKey = policy('per-key', 'key', settings.keyPerMinute, 60, 'with this key this minute');
    this.perCreator = policy('per-creator', 'creator', settings.creatorPerHour, 3600, 'for this creator this hour');
    this.policiesField = [this.perKey, this.perCreator]
      .map((p) => policyField({ policy: p.name, limit: p.limit, windowSeconds: p.windowSeconds }))
      .join(', ');
    this.ofOperations = {
      uploads: policy('uploads', 'uploads', settings.uploadsPerKeyPerMinute, 60, 'uploads with this key this minute'),
      'link-checks': policy(
        'link-checks',
        'links',
        settings.linkChecksPerGuidePerHour,
        3600,
        'link checks of this guide this hour',
      ),
      'sign-in-address': policy(
        'sign-in-per-address',
        'signin-ip',
        settings.signInPerAddressPerMinute,
        60,
        'to sign in from this address this minute',
      ),
      'account-mails': policy(
        'mails-per-account',
        'account-mails',
        settings.mailsPerAccountPerHour,
        3600,
        'for mail to this account this hour',
      ),
      registrations: policy(
        'registrations-per-address',
        'registrations',
        settings.registrationsPerAddressPerHour,
        3600,
        'to register clients from this address this hour',
      ),
    };
  }

  /**
   * A limiter in the same store as these limits (memory, or Redis with this instance's memory as
   * its stand-in when several instances share the load), for counts a part keeps itself (the
   * studio's failed sign-ins): ask the function for the limiter each time.
   */
  limiter(prefix: string, points: number, durationSeconds: number): () => RateLimiterAbstract {
    return limiterOf({ keyPrefix: prefix, points, duration: durationSeconds }, this.redis);
  }

  /**
   * Spends one call from every policy; over any of them throws rate_limited. In memory it answers
   * at once, not through a promise: the hot path of every call awaits only when Redis counts.
   */
  consume(principal: Pick<Principal, 'keyId' | 'creatorId'>): RateLimitOutcome | Promise<RateLimitOutcome> {
    const perKey = spend(this.perKey, principal.keyId);
    const perCreator = spend(this.perCreator, principal.creatorId);
    if (perKey instanceof Promise || perCreator instanceof Promise) {
      return Promise.all([perKey, perCreator]).then(([k, c]) => this.outcome(k, c));
    }
    return this.outcome(perKey, perCreator);
  }

  private outcome(perKey: RateLimitState, perCreator: RateLimitState): RateLimitOutcome {
    const tightest = perCreator.remaining / perCreator.limit < perKey.remaining / perKey.limit ? perCreator : perKey;
    return { tightest, policies: [perKey, perCreator], policiesField: this.policiesField };
  }

  /** Spends one from an operation's own limit, for what its input names (a key, a guide). */
  async consumeFor(policy: OperationPolicy, key: string): Promise<RateLimitState> {
    return spend(this.ofOperations[policy], key);
  }

  /** As consumeFor, but the rate_limited refusal is answered, not thrown (undefined: spent). */
  async refusalFor(policy: OperationPolicy, key: string): Promise<ApiError | undefined> {
    try {
      await spend(this.ofOperations[policy], key);
      return undefined;
    } catch (err) {
      if (err instanceof ApiError && err.code === 'rate_limited') return err;
      throw err;
    }
  }
}

/** Spends one point; over the limit throws rate_limited with the wait. */
function spend(policy: Policy, key: string): RateLimitState | Promise<RateLimitState> {
  return then(policy.count(key), (spent) => stateOf(policy, spent));
}

interface PolicyDetails {
  policy: string;
  limit: number;
  windowSeconds: number;
}

/** Every rate_limited refusal, per key, per creator, per operation or per address, is made here. */
function rateLimited(message: string, details: PolicyDetails, retryAfterMs: number): ApiError {
  return new ApiError('rate_limited', message, { retryAfterMs, details: { ...details } });
}

/** An operation's job that runs one at a time is running now (see `exclusive` on operations). */
export function jobRunning(message: string, retryAfterMs: number): ApiError {
  const windowSeconds = Math.ceil(retryAfterMs / 1000);
  return rateLimited(message, { policy: 'one-at-a-time', limit: 1, windowSeconds }, retryAfterMs);
}

/** The policy a rate_limited refusal ran out of, spent to nothing until its wait ends. */
export function refusedPolicy(error: ApiError): RateLimitState | undefined {
  if (error.code !== 'rate_limited' || error.retryAfterMs === undefined || !error.details) return undefined;
  const { policy, limit, windowSeconds } = error.details as Partial<PolicyDetails>;
  if (typeof policy !== 'string' || typeof limit !== 'number' || typeof windowSeconds !== 'number') return undefined;
  return { policy, limit, windowSeconds, remaining: 0, resetMs: error.retryAfterMs };
}

function stateOf(policy: Policy, spent: Spent): RateLimitState {
  if (spent.over) {
    const retryAfterMs = Math.max(1, spent.msBeforeNext);
    throw rateLimited(
      `Too many requests ${policy.scope}: the limit is ${policy.limit}. ` +
        `Wait ${Math.ceil(retryAfterMs / 1000)} s before the next request.`,
      { policy: policy.name, limit: policy.limit, windowSeconds: policy.windowSeconds },
      retryAfterMs,
    );
  }
  return {
    policy: policy.name,
    limit: policy.limit,
    remaining: spent.remaining,
    resetMs: spent.msBeforeNext,
    windowSeconds: policy.windowSeconds,
  };
}

/** A policy as the RateLimit-Policy field lists it (draft-ietf-httpapi-ratelimit-headers). */
export function policyField(p: Pick<RateLimitState, 'policy' | 'limit' | 'windowSeconds'>): string {
  return `"${p.policy}";q=${p.limit};w=${p.windowSeconds}`;
}

const AUTH_FAILURE_WINDOW_SECONDS = 60;
/** Blocked addresses remembered at most; expired ones are dropped first when the bound is reached. */
const MAX_BLOCKED = 10_000;

/**
 * Failed authentications per client address, so that keys cannot be guessed at full speed. Only
 * failures reach the store (memory or Redis); once an address is over, it is blocked in this
 * process until its window ends, and every request from it is refused before its key is looked
 * at (a right guess included). A call with a good key pays one look-up in a map that is empty
 * unless someone is being refused.
 */
export class AuthFailureLimits {
  private readonly limiter: () => RateLimiterAbstract;
  private readonly limit: number;
  private readonly blockedUntil = new Map<string, number>();

  constructor(perMinute: number, redis?: RedisLink) {
    this.limit = perMinute;
    this.limiter = limiterOf(
      { points: perMinute, duration: AUTH_FAILURE_WINDOW_SECONDS, keyPrefix: 'auth-fail' },
      redis,
    );
  }

  /** Throws rate_limited while the address is blocked. */
  refuseIfBlocked(address: () => string): void {
    if (this.blockedUntil.size === 0) return;
    const ip = address();
    const until = this.blockedUntil.get(ip);
    if (until === undefined) return;
    const left = until - Date.now();
    if (left > 0) throw this.refusal(left);
    this.blockedUntil.delete(ip);
  }

  /** Counts one failed authentication; once over the limit, the rate_limited error to answer instead. */
  async fail(address: string): Promise<ApiError | undefined> {
    try {
      await this.limiter().consume(address, 1);
      return undefined;
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw err;
      const retryAfterMs = Math.max(1, err.msBeforeNext);
      this.block(address, Date.now() + retryAfterMs);
      return this.refusal(retryAfterMs);
    }
  }

  private block(address: string, until: number): void {
    if (this.blockedUntil.size >= MAX_BLOCKED) {
      const now = Date.now();
      for (const [ip, end] of this.blockedUntil) if (end <= now) this.blockedUntil.delete(ip);
      if (this.blockedUntil.size >= MAX_BLOCKED) return;
    }
    this.blockedUntil.set(address, until);
  }

  private refusal(retryAfterMs: number): ApiError {
    return rateLimited(
      `Too many failed authentications from this address: the limit is ${this.limit} a minute. ` +
        `Check the API key, and wait ${Math.ceil(retryAfterMs / 1000)} s before the next request.`,
      { policy: 'auth-failures-per-address', limit: this.limit, windowSeconds: AUTH_FAILURE_WINDOW_SECONDS },
      retryAfterMs,
    );
  }
}
