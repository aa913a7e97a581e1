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
}

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
  keyOf(principal: Principal): string;
}

/**
 * Per key per minute and per creator per hour. In memory by default; over Redis when several
 * instances share the load, so the same budget holds whichever instance answers.
 */
export class RateLimits {
  private readonly policies: Policy[];

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
    this.policies = [
      {
        name: 'per-key',
        limiter: make('key', settings.keyPerMinute, 60),
        limit: settings.keyPerMinute,
        windowSeconds: 60,
        keyOf: (p) => p.keyId,
      },
      {
        name: 'per-creator',
        limiter: make('creator', settings.creatorPerHour, 3600),
        limit: settings.creatorPerHour,
        windowSeconds: 3600,
        keyOf: (p) => p.creatorId,
      },
    ];
  }

  /** Spends one call from every policy; over any of them throws rate_limited. */
  async consume(principal: Principal): Promise<RateLimitOutcome> {
    const states: RateLimitState[] = [];
    for (const policy of this.policies) {
      try {
        const res = await policy.limiter.consume(policy.keyOf(principal), 1);
        states.push(stateOf(policy, res));
      } catch (err) {
        if (!(err instanceof RateLimiterRes)) throw err;
        const retryAfterMs = Math.max(1, err.msBeforeNext);
        throw new ApiError(
          'rate_limited',
          `Too many requests ${policy.name === 'per-key' ? 'with this key this minute' : 'for this creator this hour'}: ` +
            `the limit is ${policy.limit}. Wait ${Math.ceil(retryAfterMs / 1000)} s before the next request.`,
          { retryAfterMs, details: { policy: policy.name, limit: policy.limit, windowSeconds: policy.windowSeconds } },
        );
      }
    }
    const tightest = states.reduce((a, b) => (b.remaining / b.limit < a.remaining / a.limit ? b : a));
    return { tightest, policies: states };
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
