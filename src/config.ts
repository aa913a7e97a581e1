import { z } from 'zod';
import type { RateLimitSettings } from './core/rate-limit.ts';
import type { BucketSettings } from './core/services.ts';
import type { StoreDeadlines } from './db/pg-deadlines.ts';

/** How much of a guide's past the sweep keeps. */
export interface Retention {
  /** RELEASES_KEPT: the newest releases kept per guide (the live one always among them); undefined: all. */
  releasesKept: number | undefined;
  /** HISTORY_KEPT_DAYS: days a history entry is kept, and with it the files its before-images name. */
  historyDays: number;
}

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

/** An absolute http(s) address without a trailing slash, or undefined when unset. */
const optionalAddress = (name: string) =>
  optionalText.pipe(
    z
      .string()
      .optional()
      .refine((v) => v === undefined || /^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?$/.test(v), {
        message: `${name} must be an http:// or https:// address without a query`,
      })
      .transform((v) => v?.replace(/\/+$/, '')),
  );

const S3_SETTINGS = [
  'S3_ENDPOINT',
  'S3_REGION',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'S3_FORCE_PATH_STYLE',
  'S3_PUBLIC_URL',
];

const httpUrl = optionalText.pipe(
  z
    .string()
    .optional()
    .refine((v) => v === undefined || /^https?:\/\/[^/]/.test(v), 'must be an http:// or https:// address'),
);

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
  RATE_LIMIT_SIGN_IN_PER_MINUTE: positiveInt(10),
  RATE_LIMIT_MAILS_PER_ACCOUNT_PER_HOUR: positiveInt(5),
  RATE_LIMIT_REGISTRATIONS_PER_HOUR: positiveInt(20),
  SMTP_URL: optionalText,
  MAIL_FROM: z.string().default('Creator studio <studio@localhost>'),
  STUDIO_SIGN_UP: z.enum(['open', 'closed'], { message: 'must be open or closed' }).default('open'),
  MCP_ALLOWED_HOSTS: optionalText,
  SHUTDOWN_GRACE_MS: positiveInt(10000),
  MEDIA_SWEEP_START_MS: positiveInt(60_000),
  RELEASES_KEPT: optionalText.pipe(z.coerce.number<string>().int().min(1).max(1_000_000).optional()),
  HISTORY_KEPT_DAYS: z.coerce.number().int().min(1).max(36_500).default(90),
  AUTH_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(2000),
  RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: positiveInt(30),
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  MAX_CONNECTIONS: z.coerce.number().int().min(1).max(1_000_000).default(4096),
  MCP_DIRECT: z
    .enum(['true', 'false'], { message: 'must be true or false' })
    .default('true')
    .transform((v) => v === 'true'),
  REST_EARLY: z
    .enum(['true', 'false'], { message: 'must be true or false' })
    .default('true')
    .transform((v) => v === 'true'),
  CORS_ORIGINS: optionalText.pipe(z.string().optional().transform(parseOrigins)),
  S3_BUCKET: optionalText.pipe(
    z
      .string()
      .regex(
        /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
        'must be a bucket name: 3-63 lower-case letters, digits, dots and hyphens',
      )
      .optional(),
  ),
  S3_ENDPOINT: optionalAddress('S3_ENDPOINT'),
  S3_REGION: optionalText,
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false'], { message: 'must be true or false' }).optional(),
  S3_KEY_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9/_.-]{0,200}$/, 'may hold only letters, digits and / _ . -')
    .refine((v) => !v.startsWith('/') && !v.includes('//'), 'must not start with / or hold //')
    .default('media/'),
  S3_PUBLIC_URL: optionalAddress('S3_PUBLIC_URL'),
  SHUTDOWN_DELAY_MS: z.coerce.number().int().min(0).max(600_000).default(0),
  METRICS_HOST: z.string().default('127.0.0.1'),
  METRICS_PORT: optionalText.pipe(z.coerce.number<string>().int().min(0).max(65535).optional()),
  // OpenTelemetry's own names, so that an operator's usual settings work here.
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: httpUrl,
  OTEL_EXPORTER_OTLP_ENDPOINT: httpUrl,
  OTEL_SERVICE_NAME: optionalText,
  OTEL_TRACES_SAMPLER_ARG: optionalText.pipe(z.coerce.number<string>().min(0).max(1).optional()),
  OTEL_SDK_DISABLED: z
    .enum(['true', 'false', ''], { message: 'must be true or false' })
    .default('false')
    .transform((v) => v === 'true'),
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(10_000),
  DATABASE_ACQUIRE_TIMEOUT_MS: z.coerce.number().int().min(50).max(600_000).default(5000),
  REDIS_TIMEOUT_MS: z.coerce.number().int().min(10).max(60_000).default(500),
  DATABASE_PREPARED_STATEMENTS: z
    .enum(['true', 'false'], { message: 'must be true or false' })
    .default('true')
    .transform((v) => v === 'true'),
});

type Env = z.infer<typeof envSchema>;

/** The bucket photo files live in when S3_BUCKET is set; the settings that need it, checked together. */
function bucketOf(e: Env, env: NodeJS.ProcessEnv): BucketSettings | undefined {
  if (e.S3_BUCKET === undefined) {
    const stray = S3_SETTINGS.filter((name) => env[name]?.trim());
    if (stray.length > 0) throw new Error(`Invalid configuration:\n  ${stray.join(', ')} set without S3_BUCKET`);
    return undefined;
  }
  if ((e.S3_ACCESS_KEY_ID === undefined) !== (e.S3_SECRET_ACCESS_KEY === undefined)) {
    throw new Error(
      'Invalid configuration:\n  S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both or neither',
    );
  }
  return {
    bucket: e.S3_BUCKET,
    endpoint: e.S3_ENDPOINT,
    region: e.S3_REGION ?? 'us-east-1',
    credentials:
      e.S3_ACCESS_KEY_ID !== undefined && e.S3_SECRET_ACCESS_KEY !== undefined
        ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY }
        : undefined,
    // An endpoint of one's own (MinIO, Ceph, a test server at an IP address) rarely has a name per bucket.
    forcePathStyle:
      e.S3_FORCE_PATH_STYLE === undefined ? e.S3_ENDPOINT !== undefined : e.S3_FORCE_PATH_STYLE === 'true',
    keyPrefix: e.S3_KEY_PREFIX,
  };
}

export interface MetricsSettings {
  host: string;
  /** 0 picks a free port. */
  port: number;
}

export interface TracingSettings {
  /** Where spans are sent: an OTLP/HTTP traces endpoint (…/v1/traces). */
  endpoint: string;
  serviceName: string;
  /** Share of new traces recorded (0…1); a trace the caller started follows the caller's choice. */
  sampleRatio: number;
}

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  /** Where photo files live; DATA_DIR/media when unset. */
  mediaDir: string | undefined;
  /** The bucket photo files live in instead of mediaDir (S3_BUCKET and its companions). */
  bucket: BucketSettings | undefined;
  /** Where buyers fetch photo files from when not this service's /media: `${mediaUrl}<blob key>` (S3_PUBLIC_URL). */
  mediaUrl: string | undefined;
  databaseUrl: string | undefined;
  /** PostgreSQL: named prepared statements, parsed and planned once per connection. */
  databasePreparedStatements: boolean;
  /** How long a statement and the wait for a connection (or SQLite's write lock) may take; then 503. */
  databaseDeadlines: StoreDeadlines;
  redisUrl: string | undefined;
  /** How long a Redis command or connection attempt may take before rate limits fall back to memory. */
  redisTimeoutMs: number;
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
  /** Whether plain REST reads are answered before Fastify routes them (src/transports/rest-early.ts). */
  restEarly: boolean;
  /** Host names the MCP endpoint answers to (DNS-rebinding guard). */
  mcpAllowedHosts: string[];
  shutdownGraceMs: number;
  /** How long after the start the first sweep of files no record names runs (then every six hours). */
  mediaSweepStartMs: number;
  /** What the sweep keeps of what a guide was: releases and history entries (orphan-sweep.ts). */
  retention: Retention;
  /** How long an authenticated key is trusted before the store is read again (0: every request). */
  authCacheMs: number;
  /** Origins whose browser pages may call the REST API (CORS); empty: CORS off. `*`: any. */
  corsOrigins: string[];
  /** Where the studio's mail goes out (nodemailer URL); unset: mail is written to the log. */
  smtpUrl: string | undefined;
  /** The sender of the studio's mail. */
  mailFrom: string;
  /** Whether anyone may make an account in the studio (closed: the admin command line makes them). */
  studioSignUpOpen: boolean;
  /** On shutdown, how long /readyz answers not ready while requests are still taken. */
  shutdownDelayMs: number;
  /** Where Prometheus metrics are served, off the public port; undefined: no metrics. */
  metrics: MetricsSettings | undefined;
  /** Where traces are exported; undefined: tracing off (nothing of OpenTelemetry is loaded). */
  tracing: TracingSettings | undefined;
}

/** The OTLP traces endpoint: the traces setting as given, or the base endpoint's /v1/traces. */
function tracesEndpoint(e: z.infer<typeof envSchema>): string | undefined {
  if (e.OTEL_SDK_DISABLED) return undefined;
  if (e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (e.OTEL_EXPORTER_OTLP_ENDPOINT) return `${e.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces`;
  return undefined;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  const bucket = bucketOf(e, env);
  if (e.METRICS_PORT !== undefined && e.METRICS_PORT !== 0 && e.METRICS_PORT === e.PORT) {
    throw new Error('Invalid configuration:\n  METRICS_PORT: must differ from PORT; metrics stay off the public port');
  }
  const endpoint = tracesEndpoint(e);
  const publicUrl = (e.PUBLIC_URL ?? `http://${e.HOST.includes(':') ? `[${e.HOST}]` : e.HOST}:${e.PORT}`).replace(
    /\/$/,
    '',
  );
  return {
    host: e.HOST,
    port: e.PORT,
    dataDir: e.DATA_DIR,
    mediaDir: e.MEDIA_DIR,
    bucket,
    mediaUrl: bucket && e.S3_PUBLIC_URL !== undefined ? `${e.S3_PUBLIC_URL}/${bucket.keyPrefix}` : undefined,
    databaseUrl: e.DATABASE_URL,
    databasePreparedStatements: e.DATABASE_PREPARED_STATEMENTS,
    databaseDeadlines: { statementMs: e.DATABASE_STATEMENT_TIMEOUT_MS, acquireMs: e.DATABASE_ACQUIRE_TIMEOUT_MS },
    redisUrl: e.REDIS_URL,
    redisTimeoutMs: e.REDIS_TIMEOUT_MS,
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
      signInPerAddressPerMinute: e.RATE_LIMIT_SIGN_IN_PER_MINUTE,
      mailsPerAccountPerHour: e.RATE_LIMIT_MAILS_PER_ACCOUNT_PER_HOUR,
      registrationsPerAddressPerHour: e.RATE_LIMIT_REGISTRATIONS_PER_HOUR,
    },
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    studioSignUpOpen: e.STUDIO_SIGN_UP === 'open',
    mcpAllowedHosts: e.MCP_ALLOWED_HOSTS
      ? e.MCP_ALLOWED_HOSTS.split(',').map((h) => h.trim())
      : ['localhost', '127.0.0.1', '[::1]', e.HOST],
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    mediaSweepStartMs: e.MEDIA_SWEEP_START_MS,
    retention: { releasesKept: e.RELEASES_KEPT, historyDays: e.HISTORY_KEPT_DAYS },
    authCacheMs: e.AUTH_CACHE_MS,
    authFailuresPerMinute: e.RATE_LIMIT_AUTH_FAILURES_PER_MINUTE,
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    maxConnections: e.MAX_CONNECTIONS,
    mcpDirect: e.MCP_DIRECT,
    restEarly: e.REST_EARLY,
    corsOrigins: e.CORS_ORIGINS,
    shutdownDelayMs: e.SHUTDOWN_DELAY_MS,
    metrics: e.METRICS_PORT === undefined ? undefined : { host: e.METRICS_HOST, port: e.METRICS_PORT },
    tracing:
      endpoint === undefined
        ? undefined
        : {
            endpoint,
            serviceName: e.OTEL_SERVICE_NAME ?? 'creator-api',
            sampleRatio: e.OTEL_TRACES_SAMPLER_ARG ?? 1,
          },
  };
}
