import type { Redis } from 'ioredis';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Principal } from './auth.ts';
import { ApiError } from './errors.ts';

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
}

/** The limits an operation may declare beside the per-key and per-creator ones every call pays. */
export type OperationPolicy = 'uploads' | 'link-checks';

/** The budget left after a call: the tighter of the policies, for the RateLimit headers. */
export interface RateLimitOutcome {
  tightest: RateLimitState;
  policies: RateLimitState[];
}

interface Policy {
  name: string;
  limiter: RateLimiterAbstract;
  limit: number;
  windowSeconds: number;
  /** How the refusal names what ran out ("with this key this minute"). */
  scope: string;
}

/**
 * Per key per minute and per creator per hour. In memory by default; over Redis when several
 * instances share the load, so the same budget holds whichever instance answers.
 */
export class RateLimits {
  private readonly perKey: Policy;
  private readonly perCreator: Policy;
  private readonly ofOperations: Record<OperationPolicy, Policy>;

  constructor(settings: RateLimitSettings, redis?: Redis) {
    const make = (prefix: string, points: number, duration: number): RateLimiterAbstract =>
      redis
        ? new RateLimiterRedis({
            storeClient: redis,
            keyPrefix: `rl:${prefix}`,
            points,
            duration,
            useRedisPackage: false,
          })
        : new RateLimiterMemory({ keyPrefix: prefix, points, duration });
    const policy = (name: string, prefix: string, limit: number, windowSeconds: number, scope: string): Policy => ({
      name,
      limiter: make(prefix, limit, windowSeconds),
      limit,
      windowSeconds,
      scope,
    });
    this.perKey = policy('per-key', 'key', settings.keyPerMinute, 60, 'with this key this minute');
    this.perCreator = policy('per-creator', 'creator', settings.creatorPerHour, 3600, 'for this creator this hour');
    this.ofOperations = {
      uploads: policy('uploads', 'uploads', settings.uploadsPerKeyPerMinute, 60, 'uploads with this key this minute'),
      'link-checks': policy(
        'link-checks',
        'links',
        settings.linkChecksPerGuidePerHour,
        3600,
        'link checks of this guide this hour',
      ),
    };
  }

  /** Spends one call from every policy; over any of them throws rate_limited. */
  async consume(principal: Principal): Promise<RateLimitOutcome> {
    const states = [await spend(this.perKey, principal.keyId), await spend(this.perCreator, principal.creatorId)];
    const tightest = states.reduce((a, b) => (b.remaining / b.limit < a.remaining / a.limit ? b : a));
    return { tightest, policies: states };
  }

  /** Spends one from an operation's own limit, for what its input names (a key, a guide). */
  async consumeFor(policy: OperationPolicy, key: string): Promise<RateLimitState> {
    return spend(this.ofOperations[policy], key);
  }
}

/** Spends one point; over the limit throws rate_limited with the wait. */
async function spend(policy: Policy, key: string): Promise<RateLimitState> {
  try {
    return stateOf(policy, await policy.limiter.consume(key, 1));
  } catch (err) {
    if (!(err instanceof RateLimiterRes)) throw err;
    const retryAfterMs = Math.max(1, err.msBeforeNext);
    throw new ApiError(
      'rate_limited',
      `Too many requests ${policy.scope}: the limit is ${policy.limit}. ` +
        `Wait ${Math.ceil(retryAfterMs / 1000)} s before the next request.`,
      { retryAfterMs, details: { policy: policy.name, limit: policy.limit, windowSeconds: policy.windowSeconds } },
    );
  }
}

function stateOf(policy: Policy, res: RateLimiterRes): RateLimitState {
  return {
    policy: policy.name,
    limit: policy.limit,
    remaining: Math.max(0, res.remainingPoints),
    resetMs: res.msBeforeNext,
    windowSeconds: policy.windowSeconds,
  };
}
