import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import type { Log } from './log.ts';
import { countRateLimitFallback } from './work-meter.ts';

const require = createRequire(import.meta.url);

/** While Redis is away, how often it is asked whether it answers again. */
const PROBE_EVERY_MS = 1000;

/** What readiness reports of Redis: it has a fallback, so it is never a reason to be not ready. */
export type RedisState = { status: 'up' } | { status: 'degraded'; reason: string; since: string };

/**
 * The connection to Redis (REDIS_URL) that rate limits share, and whether it is worth asking. A
 * dead Redis must not block or fail calls: a command fails within REDIS_TIMEOUT_MS when Redis says
 * nothing or is not connected (it waits in ioredis's queue only that long, so the first calls of a
 * starting instance wait for the connection being made), and at once when a reconnection attempt
 * fails (no retries); each failure is
 * answered from this instance's memory (rate-limiter-flexible's insurance limiter), and from the
 * first one on, Redis is not asked at all until a ping every second gets its answer. An outage is
 * logged once when it starts and once when it ends, as JSON through the service's log; ioredis's own
 * errors (one per reconnection attempt) are kept for that line, never printed.
 */
export class RedisLink {
  readonly client: Redis;
  private readonly log: Log;
  private awaySince: Date | undefined;
  private lastError: string | undefined;
  private probe: NodeJS.Timeout | undefined;

  constructor(url: string, timeoutMs: number, log: Log) {
    this.log = log;
    // Required, not imported: buildApp is synchronous, and ioredis is loaded only when REDIS_URL is set.
    const { Redis } = require('ioredis') as typeof import('ioredis');
    this.client = new Redis(url, {
      maxRetriesPerRequest: 0,
      connectTimeout: timeoutMs,
      commandTimeout: timeoutMs,
      retryStrategy: (attempt) => Math.min(attempt * 100, PROBE_EVERY_MS),
    });
    this.client.on('error', (err: Error) => {
      this.lastError = err.message;
    });
  }

  /** Whether limits should be asked of Redis now. */
  get usable(): boolean {
    return this.awaySince === undefined;
  }

  /** A limit was counted in memory because Redis did not answer (or is known to be away). */
  fellBack(): void {
    countRateLimitFallback();
    if (this.awaySince !== undefined) return;
    this.awaySince = new Date();
    this.log.warn(
      { redis: this.client.status, err: this.lastError },
      "Redis does not answer: rate limits are counted in this instance's memory until it does",
    );
    this.probe = setInterval(() => void this.ask(), PROBE_EVERY_MS);
    this.probe.unref();
  }

  state(): RedisState {
    if (this.awaySince === undefined) return { status: 'up' };
    return {
      status: 'degraded',
      reason: 'Redis does not answer: each instance counts rate limits in its own memory until it does',
      since: this.awaySince.toISOString(),
    };
  }

  close(): void {
    clearInterval(this.probe);
    this.client.disconnect();
  }

  private async ask(): Promise<void> {
    try {
      await this.client.ping();
    } catch {
      return;
    }
    if (this.awaySince === undefined) return;
    const away = Date.now() - this.awaySince.getTime();
    this.awaySince = undefined;
    clearInterval(this.probe);
    this.log.info({ awayMs: away }, 'Redis answers again: rate limits are shared by the instances again');
  }
}
