import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { Clock } from './core/clock.ts';
import { CursorSeal } from './core/cursor-seal.ts';
import type { Runtime } from './core/invoke.ts';
import { KeyStore } from './core/keys.ts';
import { withoutSecrets } from './core/log.ts';
import { AuthFailureLimits, RateLimits } from './core/rate-limit.ts';
import { RedisLink } from './core/redis-link.ts';
import type { Registry } from './core/registry.ts';
import type { Resource } from './core/resource.ts';
import { newSealKey } from './core/sealed-text.ts';
import type { Services } from './core/services.ts';
import { keptSecret } from './db/kept-secrets.ts';
import type { Store } from './db/store-interface.ts';
import type { Observability } from './observability/index.ts';
import {
  createCaches,
  createRegistry,
  createServices,
  createStores,
  guides,
  heldReferences,
  probeBlobStore,
  pruneRetention,
  publicDownloads,
  publicFiles,
  publicPages,
  scheduleOrphanSweep,
} from './resources/index.ts';
import type { GuardOptions } from './resources/links/index.ts';
import { createMailer } from './studio/accounts/mailer.ts';
import { registerStudio } from './studio/index.ts';
import { challengeOnRefusal } from './studio/oauth/challenges.ts';
import { registerOAuthRoutes } from './studio/oauth/oauth-routes.ts';
import { OAuthServer } from './studio/oauth/oauth-server.ts';
import { authenticator } from './transports/authenticate.ts';
import { sendJson } from './transports/compression.ts';
import { registerCors } from './transports/cors.ts';
import { registerDocsPage } from './transports/docs-page.ts';
import { registerDownloads } from './transports/downloads.ts';
import { clientErrorHandler, RouteMethods, sendFastifyError, sendNoRoute } from './transports/http-errors.ts';
import { parseJsonBody } from './transports/json-body.ts';
import { registerMcp } from './transports/mcp.ts';
import type { McpPath } from './transports/mcp-options.ts';
import { buildOpenApi } from './transports/openapi.ts';
import { registerPublicFiles } from './transports/public-files.ts';
import { registerPublicPages } from './transports/public-pages.ts';
import { bucketDependency, READY_PATH, registerReadiness, storeDependency } from './transports/readiness.ts';
import { decorateRequestLabels } from './transports/request-labels.ts';
import { API_PREFIX, registerRest } from './transports/rest.ts';
import { EarlyReads, earlyRequestId } from './transports/rest-early.ts';
import { refuseWhileClosing, Shutdown } from './transports/shutdown.ts';

export interface AppDeps {
  config: Config;
  store: Store;
  clock: Clock;
  logger: Logger;
  /**
   * Told which path answered each MCP request (the direct answers of tool calls or the SDK's full
   * entry), and whether a recognized call was answered before Fastify: tests compare the paths.
   * config.mcpDirect switches the direct path off, config.restEarly the answers before Fastify.
   */
  observeMcp?: (path: McpPath, early?: boolean) => void;
  /**
   * Told of each REST read run before Fastify routes it: true when answered there, false when
   * handed to Fastify with its outcome (tests compare the two paths). config.restEarly switches it off.
   */
  observeEarly?: (answered: boolean) => void;
  /** Services to use instead of the ones built from the settings (tests: a link checker that may reach them). */
  services?: Partial<Services>;
  /** How OAuth client metadata documents are fetched: the address guard's options (tests: their resolver). */
  clientMetadataGuard?: Partial<GuardOptions>;
  /** Metrics and traces, as config turns them on: `await loadObservability(config)`. */
  observability?: Observability;
  /**
   * Resources served beside the API's own, as if listed in src/resources/index.ts (a test's
   * throwaway resource); the store must have been opened with them too (`openStore`).
   */
  resources?: readonly Resource[];
  /**
   * Benchmarks only: writes open no change in the history, so `npm run bench` can put a write
   * beside the same write with history (the store's triggers dropped too: dropHistoryTriggers).
   * Never a setting: a deployment always keeps its history.
   */
  withoutHistory?: boolean;
}

export interface App {
  fastify: FastifyInstance;
  registry: Registry;
  /** Listens, and points default public addresses at the address actually bound (PORT=0 picks one). */
  listen(host: string, port: number): Promise<string>;
  /** Where Prometheus metrics are served, once listening with METRICS_PORT set. */
  metricsUrl: string | undefined;
  /** Where the creator's studio is reached (STUDIO_URL, or the address bound once listening). */
  readonly studioUrl: string;
  close(): Promise<void>;
}

const JSON_BODY_LIMIT = 2 * 1024 * 1024;
const REQUEST_ID = /^[\w.:-]{1,100}$/;
/**
 * Path parameters are bounded by the URL's own limit, not the router's 100 characters: an id too
 * long gets the operation's own refusal, the one its MCP tool gives.
 */
const MAX_PARAM_LENGTH = 16 * 1024;

/** Fastify's schema compilers: none (see the schemaController option below). */
function noRouteSchemas(): never {
  throw new Error('routes here declare no Fastify schema: operations validate their input with zod');
}

/** The HTTP application: REST under /api/v1, MCP at /mcp, the OpenAPI document and liveness. */
export function buildApp(deps: AppDeps): App {
  const { config, store, clock } = deps;
  const { metrics, tracing } = deps.observability ?? {};
  if ((config.metrics && !metrics) || (config.tracing && !tracing)) {
    throw new Error(
      'buildApp: metrics or tracing are configured; pass deps.observability = await loadObservability(config)',
    );
  }
  const logger = withoutSecrets(deps.logger);
  const extra = deps.resources ?? [];
  const registry = createRegistry(extra);
  const redis = config.redisUrl ? new RedisLink(config.redisUrl, config.redisTimeoutMs, logger) : undefined;
  // Every cache of this app, never a module's: tests and instances in one process each own theirs.
  const caches = createCaches(extra);
  const runtime: Runtime = {
    db: store.db,
    dialect: store.dialect,
    stores: createStores(extra, caches),
    caches,
    references: heldReferences(extra),
    guides,
    services: {
      ...createServices({ dataDir: config.dataDir, mediaDir: config.mediaDir, bucket: config.bucket, clock }, extra),
      ...deps.services,
    },
    clock,
    urls: { publicUrl: config.publicUrl, studioUrl: config.studioUrl, mediaUrl: config.mediaUrl },
    rateLimits: new RateLimits(config.rateLimits, redis),
    log: logger,
    coordination: store.coordination,
    // One key for every instance of the deployment: a cursor one issued reads on at another.
    cursors: new CursorSeal(async () => Buffer.from(await keptSecret(store.db, 'cursor-key', newSealKey), 'base64url')),
    history: !deps.withoutHistory,
  };
  const sweepStores = runtime.stores({ db: store.db, clock, dialect: store.dialect });
  const stopSweeping = scheduleOrphanSweep(store, runtime.services.blobs, logger, config.mediaSweepStartMs, () =>
    pruneRetention(sweepStores, config.retention, clock.now()),
  );
  const keys = new KeyStore(store.db, clock, { cacheMs: config.authCacheMs, revocations: store.coordination });
  const oauth = new OAuthServer(runtime, deps.clientMetadataGuard);
  const authFailures = new AuthFailureLimits(config.authFailuresPerMinute, redis);
  const authenticate = authenticator(keys, authFailures, oauth);

  // As Fastify's genReqId gives it, for a request answered before Fastify sees it too.
  const requestId = (req: IncomingMessage) => {
    const sent = req.headers['x-request-id'];
    return typeof sent === 'string' && REQUEST_ID.test(sent) ? sent : randomUUID();
  };

  const fastify = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    // A silent logger's child logs nothing either: requests share it rather than each making a
    // child (pino's child serializes its bindings, ~2% of a cached get_guide's instructions).
    ...(logger.level === 'silent' && { childLoggerFactory: (parent: FastifyBaseLogger) => parent }),
    bodyLimit: JSON_BODY_LIMIT,
    requestIdHeader: false,
    genReqId: (req) => earlyRequestId(req) ?? requestId(req),
    // Requests that arrive while closing get the envelope from the hook below, not Fastify's own body.
    return503OnClosing: false,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors: sendFastifyError,
    // Slow clients: the whole request (headers and body) must arrive within the timeout, checked
    // often enough that a short timeout holds.
    requestTimeout: config.requestTimeoutMs,
    http: {
      headersTimeout: config.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(5000, Math.max(50, Math.floor(config.requestTimeoutMs / 4))),
    },
    clientErrorHandler: clientErrorHandler(logger, config.requestTimeoutMs),
    // Input is checked by each operation's zod schema, never by a Fastify route schema: Fastify's
    // own compilers (Ajv, fast-json-stringify) would be loaded at every start for nothing.
    schemaController: { compilersFactory: { buildValidator: noRouteSchemas, buildSerializer: noRouteSchemas } },
  });
  fastify.server.maxConnections = config.maxConnections;
  decorateRequestLabels(fastify);
  // Before any route and hook: every request gets its span, and the spans their labels.
  tracing?.instrument(fastify, store);
  metrics?.instrument(fastify, store);

  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, text, done) => {
    try {
      done(null, parseJsonBody(typeof text === 'string' ? text : text.toString()));
    } catch (err) {
      done(err as Error, undefined);
    }
  });

  const shutdown = new Shutdown();
  // Plain REST reads answered before Fastify routes them, when nothing Fastify runs for every request
  // would add to them: no metrics, CORS or per-request log lines (rest-early.ts).
  const early =
    config.restEarly && !metrics && config.corsOrigins.length === 0 && !logger.isLevelEnabled('info')
      ? new EarlyReads({
          mayAnswer: (req) => !shutdown.closing && !tracing?.mayRecord(req.headers),
          requestId,
          logFor: logger.level === 'silent' ? () => logger : (reqId) => logger.child({ reqId }),
          track: (req) => shutdown.track(req),
          ...(deps.observeEarly && { observe: deps.observeEarly }),
        })
      : undefined;
  if (early) {
    early.install(fastify.server);
    fastify.addHook('onReady', (done) => {
      early.seal();
      done();
    });
  }
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    // /readyz keeps answering (not ready) through the shutdown, for the load balancer that asks.
    if (shutdown.closing && request.routeOptions.url !== READY_PATH) return void refuseWhileClosing(request, reply);
    shutdown.track(request.raw);
    done();
  });

  const routes = new RouteMethods();
  fastify.addHook('onRoute', (route) => {
    routes.add(route.url, route.method);
    early?.routeAdded(route.url, route.method);
  });
  fastify.setErrorHandler(sendFastifyError);
  fastify.setNotFoundHandler(sendNoRoute(routes, `${API_PREFIX}/openapi.json`));

  // The same bytes for every request, so that they are also compressed only once.
  let openApi: Buffer | undefined;
  fastify.get('/healthz', async () => ({ status: 'ok' }));
  registerReadiness(
    fastify,
    [
      storeDependency(store),
      ...(config.bucket ? [bucketDependency(() => probeBlobStore(runtime.services.blobs))] : []),
      ...(redis ? [{ name: 'redis', check: async () => redis.state() }] : []),
    ],
    shutdown,
  );
  fastify.get(`${API_PREFIX}/openapi.json`, async (request, reply) => {
    openApi ??= Buffer.from(JSON.stringify(buildOpenApi(registry, runtime.urls.publicUrl)));
    return sendJson(request, reply, openApi);
  });

  registerCors(fastify, config.corsOrigins);
  registerDocsPage(fastify, runtime.urls);
  registerPublicFiles(fastify, publicFiles(extra), runtime);
  registerPublicPages(fastify, publicPages(extra), runtime);
  registerDownloads(fastify, publicDownloads(extra), runtime, authFailures);
  registerOAuthRoutes(fastify, oauth, runtime.rateLimits);
  challengeOnRefusal(fastify, oauth);
  registerStudio(fastify, {
    runtime,
    keys,
    oauth,
    mailer: createMailer({ smtpUrl: config.smtpUrl, mailFrom: config.mailFrom }, logger),
    secureCookies: config.studioUrl.startsWith('https:'),
    signUpOpen: config.studioSignUpOpen,
  });
  registerRest(fastify, registry, runtime, authenticate, early);
  registerMcp(fastify, registry, runtime, authenticate, {
    allowedHosts: config.mcpAllowedHosts,
    direct: config.mcpDirect,
    ...(deps.observeMcp && { observe: deps.observeMcp }),
    ...(tracing && { trace: tracing.toolCall.bind(tracing) }),
    ...(early && { early }),
  });

  const app: App = {
    fastify,
    registry,
    metricsUrl: undefined,
    get studioUrl() {
      return runtime.urls.studioUrl;
    },
    async listen(host, port) {
      const address = (await fastify.listen({ host, port })).replace(/\/$/, '');
      if (!config.publicUrlFixed) runtime.urls.publicUrl = address;
      if (!config.studioUrlFixed) runtime.urls.studioUrl = `${runtime.urls.publicUrl}/studio`;
      if (metrics) {
        app.metricsUrl = await metrics.listen().catch(async (err: Error) => {
          await fastify.close();
          throw err;
        });
      }
      return address;
    },
    async close() {
      // Not ready first, while requests are still taken, so that load balancers stop sending here.
      shutdown.notReady = true;
      if (config.shutdownDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, config.shutdownDelayMs));
      shutdown.begin();
      stopSweeping();
      // Connections of requests that finish during shutdown go idle afterwards: close them as they do.
      const sweep = setInterval(() => fastify.server.closeIdleConnections(), 100);
      await fastify.close().finally(() => clearInterval(sweep));
      redis?.close();
      runtime.services.blobs.close?.();
      await metrics?.close();
      await tracing?.shutdown();
    },
  };
  return app;
}
