import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { Clock } from './core/clock.ts';
import { ApiError } from './core/errors.ts';
import type { Runtime } from './core/invoke.ts';
import { KeyStore } from './core/keys.ts';
import { RateLimits } from './core/rate-limit.ts';
import type { Registry } from './core/registry.ts';
import type { Store } from './db/database.ts';
import { createRegistry } from './resources/index.ts';
import { registerCompression } from './transports/compression.ts';
import { registerCors } from './transports/cors.ts';
import { type McpAnswerCounts, registerMcp } from './transports/mcp.ts';
import { buildOpenApi } from './transports/openapi.ts';
import { API_PREFIX, registerRest, sendError } from './transports/rest.ts';

export interface AppDeps {
  config: Config;
  store: Store;
  clock: Clock;
  logger: Logger;
  /**
   * false sends every MCP request through the SDK's full HTTP entry, without the direct answers of
   * tool calls (src/transports/mcp-direct.ts): tests compare the two answers byte for byte.
   */
  mcpDirect?: boolean;
}

export interface App {
  fastify: FastifyInstance;
  registry: Registry;
  /** How many MCP requests were answered directly and how many by the SDK's full entry. */
  mcpAnswers: McpAnswerCounts;
  /** Listens, and points default public addresses at the address actually bound (PORT=0 picks one). */
  listen(host: string, port: number): Promise<string>;
  close(): Promise<void>;
}

const JSON_BODY_LIMIT = 2 * 1024 * 1024;
const REQUEST_ID = /^[\w.:-]{1,100}$/;

/** The HTTP application: REST under /api/v1, MCP at /mcp, the OpenAPI document and liveness. */
export function buildApp(deps: AppDeps): App {
  const { config, store, clock, logger } = deps;
  const registry = createRegistry();
  const redis = config.redisUrl
    ? new Redis(config.redisUrl, { enableOfflineQueue: true, maxRetriesPerRequest: 2 })
    : undefined;
  const runtime: Runtime = {
    db: store.db,
    clock,
    urls: { publicUrl: config.publicUrl, studioUrl: config.studioUrl },
    rateLimits: new RateLimits(config.rateLimits, redis),
    log: logger,
  };
  const keys = new KeyStore(store.db, clock, { cacheMs: config.authCacheMs });

  const fastify = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    bodyLimit: JSON_BODY_LIMIT,
    requestIdHeader: false,
    genReqId: (req) => {
      const sent = req.headers['x-request-id'];
      return typeof sent === 'string' && REQUEST_ID.test(sent) ? sent : randomUUID();
    },
    return503OnClosing: true,
  });

  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, text, done) => {
    if (typeof text !== 'string' || !/\S/.test(text)) return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch (err) {
      done(new ApiError('invalid_argument', `(body): not valid JSON (${(err as Error).message})`), undefined);
    }
  });

  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    done();
  });

  fastify.setErrorHandler((err, request, reply) => {
    if (err instanceof ApiError) return sendError(request, reply, err);
    const e = err as { code?: string; statusCode?: number; message?: string };
    if (e.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || e.statusCode === 413) {
      return sendError(request, reply, new ApiError('payload_too_large', 'The request body is over the 2 MB limit.'));
    }
    if (e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || e.statusCode === 415) {
      return sendError(
        request,
        reply,
        new ApiError('invalid_argument', '(body): send JSON with Content-Type: application/json'),
      );
    }
    if (e.statusCode !== undefined && e.statusCode >= 400 && e.statusCode < 500) {
      return sendError(
        request,
        reply,
        new ApiError('invalid_argument', `(request): ${e.message ?? 'malformed request'}`),
      );
    }
    return sendError(request, reply, err);
  });

  fastify.setNotFoundHandler((request, reply) =>
    sendError(
      request,
      reply,
      new ApiError(
        'not_found',
        `No endpoint ${request.method} ${request.url.split('?')[0]}; see ${API_PREFIX}/openapi.json.`,
      ),
    ),
  );

  // The same bytes for every request, so that they are also compressed only once.
  let openApi: Buffer | undefined;
  fastify.get('/healthz', async () => ({ status: 'ok' }));
  fastify.get(`${API_PREFIX}/openapi.json`, async (_request, reply) => {
    openApi ??= Buffer.from(JSON.stringify(buildOpenApi(registry, runtime.urls.publicUrl)));
    return reply.type('application/json; charset=utf-8').send(openApi);
  });

  registerCompression(fastify);
  registerCors(fastify, config.corsOrigins);
  registerRest(fastify, registry, runtime, keys);
  const mcpAnswers = registerMcp(fastify, registry, runtime, keys, {
    allowedHosts: config.mcpAllowedHosts,
    direct: deps.mcpDirect ?? true,
  });

  return {
    fastify,
    registry,
    mcpAnswers,
    async listen(host, port) {
      const address = (await fastify.listen({ host, port })).replace(/\/$/, '');
      if (!config.publicUrlFixed) runtime.urls.publicUrl = address;
      if (!config.studioUrlFixed) runtime.urls.studioUrl = `${runtime.urls.publicUrl}/studio`;
      return address;
    },
    async close() {
      // Connections of requests that finish during shutdown go idle afterwards: close them as they do.
      const sweep = setInterval(() => fastify.server.closeIdleConnections(), 100);
      await fastify.close().finally(() => clearInterval(sweep));
      redis?.disconnect();
    },
  };
}
