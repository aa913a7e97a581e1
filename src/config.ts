import { z } from 'zod';
import type { RateLimitSettings } from './core/rate-limit.ts';

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);
const optionalText = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

/**
 * CORS_ORIGINS: `*`, or origins such as `https://studio.example.com` (scheme, host and port only,
 * comma-separated), each checked so that a typo cannot silently allow nothing.
 */
function parseOrigins(value: string | undefined, ctx: z.RefinementCtx): string[] {
  if (value === undefined) return [];
  const origins = value
    .split(',')
    .map((o) => o.trim())
    .filter((o) => o !== '');
  for (const origin of origins) {
    if (origin === '*') continue;
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (!parsed || !['http:', 'https:'].includes(parsed.protocol) || parsed.origin !== origin) {
      ctx.addIssue({
        code: 'custom',
        message: `${JSON.stringify(origin)} is not an origin: write scheme://host[:port], no path or trailing slash, or *`,
      });
    }
  }
  return origins;
}

/** Every setting, from the environment, validated once at start. The README lists each one. */
const envSchema = z.object({
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  DATA_DIR: z.string().default('./data'),
  MEDIA_DIR: optionalText,
  DATABASE_URL: optionalText,
  REDIS_URL: optionalText,
  PUBLIC_URL: optionalText,
  STUDIO_URL: optionalText,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  RATE_LIMIT_KEY_PER_MINUTE: positiveInt(600),
  RATE_LIMIT_CREATOR_PER_HOUR: positiveInt(20000),
  RATE_LIMIT_UPLOADS_PER_MINUTE: positiveInt(60),
  RATE_LIMIT_LINK_CHECKS_PER_HOUR: positiveInt(6),
  MCP_ALLOWED_HOSTS: optionalText,
  SHUTDOWN_GRACE_MS: positiveInt(10000),
  AUTH_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(2000),
  RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: positiveInt(30),
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  MAX_CONNECTIONS: z.coerce.number().int().min(1).max(1_000_000).default(4096),
  MCP_DIRECT: z
    .enum(['true', 'false'], { message: 'must be true or false' })
    .default('true')
    .transform((v) => v === 'true'),
  CORS_ORIGINS: optionalText.pipe(z.string().optional().transform(parseOrigins)),
  DATABASE_PREPARED_STATEMENTS: z
    .enum(['true', 'false'], { message: 'must be true or false' })
    .default('true')
    .transform((v) => v === 'true'),
});

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  /** Where photo files live; DATA_DIR/media when unset. */
  mediaDir: string | undefined;
  databaseUrl: string | undefined;
  /** PostgreSQL: named prepared statements, parsed and planned once per connection. */
  databasePreparedStatements: boolean;
  redisUrl: string | undefined;
  /** Where buyers reach public pages (sales pages); defaults to this server's address. */
  publicUrl: string;
  /** Whether publicUrl was set explicitly, or should follow the address the server listens on. */
  publicUrlFixed: boolean;
  /** Where the creator's studio lives (dashboard links). */
  studioUrl: string;
  /** Whether studioUrl was set explicitly. */
  studioUrlFixed: boolean;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  rateLimits: RateLimitSettings;
  /** Failed authentications per client address per minute, before that address gets 429. */
  authFailuresPerMinute: number;
  /** How long a client may take to send a whole request (headers and body). */
  requestTimeoutMs: number;
  /** Open connections at most; the server closes any over this at once. */
  maxConnections: number;
  /** Whether tool calls take the direct path (src/transports/mcp-direct.ts) or the SDK's full entry. */
  mcpDirect: boolean;
  /** Host names the MCP endpoint answers to (DNS-rebinding guard). */
  mcpAllowedHosts: string[];
  shutdownGraceMs: number;
  /** How long an authenticated key is trusted before the store is read again (0: every request). */
  authCacheMs: number;
  /** Origins whose browser pages may call the REST API (CORS); empty: CORS off. `*`: any. */
  corsOrigins: string[];
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  const publicUrl = (e.PUBLIC_URL ?? `http://${e.HOST.includes(':') ? `[${e.HOST}]` : e.HOST}:${e.PORT}`).replace(
    /\/$/,
    '',
  );
  return {
    host: e.HOST,
    port: e.PORT,
    dataDir: e.DATA_DIR,
    mediaDir: e.MEDIA_DIR,
    databaseUrl: e.DATABASE_URL,
    databasePreparedStatements: e.DATABASE_PREPARED_STATEMENTS,
    redisUrl: e.REDIS_URL,
    publicUrl,
    publicUrlFixed: e.PUBLIC_URL !== undefined,
    studioUrl: (e.STUDIO_URL ?? `${publicUrl}/studio`).replace(/\/$/, ''),
    studioUrlFixed: e.STUDIO_URL !== undefined,
    logLevel: e.LOG_LEVEL,
    rateLimits: {
      keyPerMinute: e.RATE_LIMIT_KEY_PER_MINUTE,
      creatorPerHour: e.RATE_LIMIT_CREATOR_PER_HOUR,
      uploadsPerKeyPerMinute: e.RATE_LIMIT_UPLOADS_PER_MINUTE,
      linkChecksPerGuidePerHour: e.RATE_LIMIT_LINK_CHECKS_PER_HOUR,
    },
    mcpAllowedHosts: e.MCP_ALLOWED_HOSTS
      ? e.MCP_ALLOWED_HOSTS.split(',').map((h) => h.trim())
      : ['localhost', '127.0.0.1', '[::1]', e.HOST],
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    authCacheMs: e.AUTH_CACHE_MS,
    authFailuresPerMinute: e.RATE_LIMIT_AUTH_FAILURES_PER_MINUTE,
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    maxConnections: e.MAX_CONNECTIONS,
    mcpDirect: e.MCP_DIRECT,
    corsOrigins: e.CORS_ORIGINS,
  };
}
