import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import client, { Counter, Gauge, Histogram, Registry } from '@prometheus-io/client';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { MetricsSettings } from '../config.ts';
import type { ApiError } from '../core/errors.ts';
import { refusedPolicy } from '../core/rate-limit.ts';
import { attachWorkSink, type WorkSink } from '../core/work-meter.ts';
import type { Store } from '../db/store-interface.ts';
import { operationOf, transportOf } from '../transports/request-labels.ts';

/** Request and work durations, in seconds: most answers take a millisecond or less, uploads seconds. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const WAIT_BUCKETS = [0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5];

export const METRICS_PATH = '/metrics';
/** The route label of requests no route took: one series for every unknown path. */
const UNKNOWN_ROUTE = '__unknown__';

/**
 * The process's own vitals (CPU, memory, GC, event-loop delay and utilisation), collected once per
 * process whatever number of apps it runs (tests run several): they describe the process, not an app.
 */
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    client.collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/**
 * Prometheus metrics of one app, served on an address of their own (METRICS_HOST, METRICS_PORT),
 * never on the public port. Labels are bounded: operation names, transports, statuses, error codes,
 * route patterns; never ids or paths with ids.
 */
export class Metrics {
  private readonly settings: MetricsSettings;
  readonly registry = new Registry();
  private server: Server | undefined;
  private readonly detach: Array<() => void> = [];

  constructor(settings: MetricsSettings) {
    this.settings = settings;
  }

  /** Counts every request of the app, its errors and its store's and work's use. Before the app is ready. */
  instrument(app: FastifyInstance, store: Store): void {
    const observeRequest = this.requestDurations();
    const countRefusal = this.refusals();
    // One hook, when the answer is sent (hijacked answers, MCP and the buyers' page, included).
    app.addHook('onResponse', (request, reply, done) => {
      observeRequest(request, reply);
      if (request.refusal) countRefusal(request);
      done();
    });
    this.watchStore(store);
    this.detach.push(attachWorkSink(this.workSink()));
  }

  /**
   * http_request_duration_seconds, timed by Fastify itself (`reply.elapsedTime`: from routing to the
   * answer's last byte). Each label set's series is looked up once and kept, so a request costs a
   * map look-up and a bucket increment: fastify-metrics' timer per request cost 4-5 us more.
   */
  private requestDurations(): (request: FastifyRequest, reply: FastifyReply) => void {
    const histogram = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from routing to the last byte of the answer, by route, status, transport and operation',
      labelNames: ['method', 'route', 'status_code', 'transport', 'operation'],
      buckets: DURATION_BUCKETS,
      registers: [this.registry],
    });
    const series = new Map<string, ReturnType<typeof histogram.labels>>();
    return (request, reply) => {
      // Label values come from fixed sets (routes, statuses, operation names), so the map stays small.
      const route = request.routeOptions.url ?? UNKNOWN_ROUTE;
      const operation = operationOf(request);
      const key = `${request.method} ${route} ${reply.statusCode} ${operation}`;
      let child = series.get(key);
      if (!child) {
        child = histogram.labels({
          method: request.method,
          route,
          status_code: reply.statusCode,
          transport: transportOf(request),
          operation,
        });
        series.set(key, child);
      }
      child.observe(reply.elapsedTime / 1000);
    };
  }

  private refusals(): (request: FastifyRequest) => void {
    const errors = new Counter({
      name: 'creator_api_errors_total',
      help: 'Error answers by code: REST refusals, MCP tool errors (inside an HTTP 200) and refusals before an operation',
      labelNames: ['transport', 'operation', 'code'],
      registers: [this.registry],
    });
    const rateLimited = new Counter({
      name: 'creator_api_rate_limited_total',
      help: 'rate_limited answers by the policy that refused (per-key, per-creator, uploads, link-checks, auth-failures-per-address, shutdown, store-unavailable)',
      labelNames: ['transport', 'policy'],
      registers: [this.registry],
    });
    return (request) => {
      const refusal = request.refusal;
      if (!refusal) return;
      const transport = transportOf(request);
      errors.inc({ transport, operation: operationOf(request), code: refusal.code });
      if (refusal.code === 'rate_limited') {
        rateLimited.inc({ transport, policy: refusingPolicy(refusal) });
      }
    };
  }

  private watchStore(store: Store): void {
    const registers = [this.registry];
    const labels = { dialect: store.dialect };
    const gauge = (name: string, help: string, read: () => number) =>
      new Gauge({
        name,
        help,
        labelNames: ['dialect'],
        registers,
        collect() {
          this.set(labels, read());
        },
      });
    gauge(
      'creator_api_store_connections_max',
      'Connections the store may open (1 on the embedded SQLite store)',
      () => store.probe.use().max,
    );
    gauge('creator_api_store_connections_open', 'Connections open now, idle or in use', () => store.probe.use().open);
    gauge('creator_api_store_connections_in_use', 'Connections held by a call now', () => store.probe.use().inUse);
    gauge(
      'creator_api_store_connection_waiters',
      'Calls waiting for a connection now (on SQLite: for its one connection)',
      () => store.probe.use().waiting,
    );
    const wait = new Histogram({
      name: 'creator_api_store_connection_wait_seconds',
      help: 'How long a call waited for a store connection',
      labelNames: ['dialect'],
      buckets: WAIT_BUCKETS,
      registers,
    });
    this.detach.push(
      store.probe.attach({
        acquiring() {
          const stop = wait.startTimer(labels);
          return () => void stop();
        },
      }),
    );
  }

  private workSink(): WorkSink {
    const registers = [this.registry];
    const cache = new Counter({
      name: 'creator_api_cache_lookups_total',
      help: 'Cache look-ups: guide views, guide revisions confirmed by the commit stamp, authenticated keys',
      labelNames: ['cache', 'result'],
      registers,
    });
    const uploadsInProgress = new Gauge({
      name: 'creator_api_photo_uploads_in_progress',
      help: 'Photos being checked and re-encoded now (or waiting for their turn)',
      registers,
    });
    const uploadBytes = new Counter({
      name: 'creator_api_photo_upload_bytes_total',
      help: 'Bytes of photos received for processing',
      registers,
    });
    const uploadSeconds = new Histogram({
      name: 'creator_api_photo_processing_seconds',
      help: 'Time to check and re-encode one photo (a single upload writes each file as it is encoded, so its writes count too), by outcome (processed, refused, failed)',
      labelNames: ['outcome'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    const checksInProgress = new Gauge({
      name: 'creator_api_link_checks_in_progress',
      help: 'Links being checked now',
      registers,
    });
    const checkSeconds = new Histogram({
      name: 'creator_api_link_check_seconds',
      help: 'Time to check one link, by result (ok, redirected, broken, blocked, error)',
      labelNames: ['status'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    const rateLimitFallbacks = new Counter({
      name: 'creator_api_rate_limit_fallbacks_total',
      help: "Rate-limit checks counted in this instance's memory because Redis did not answer",
      registers,
    });
    // Looked up on every read: each (cache, result) series is resolved once.
    const cacheSeries = new Map<string, ReturnType<typeof cache.labels>>();
    return {
      cache(name, hit) {
        const key = hit ? `${name} hit` : `${name} miss`;
        let child = cacheSeries.get(key);
        if (!child) {
          child = cache.labels({ cache: name, result: hit ? 'hit' : 'miss' });
          cacheSeries.set(key, child);
        }
        child.inc();
      },
      uploadStarted(bytes) {
        uploadsInProgress.inc();
        uploadBytes.inc(bytes);
      },
      uploadEnded(outcome, seconds) {
        uploadsInProgress.dec();
        uploadSeconds.observe({ outcome }, seconds);
      },
      linkCheckStarted: () => checksInProgress.inc(),
      linkCheckEnded(status, seconds) {
        checksInProgress.dec();
        checkSeconds.observe({ status }, seconds);
      },
      rateLimitFallback: () => rateLimitFallbacks.inc(),
    };
  }

  /** The exposition: this app's metrics, then the process's. */
  async text(): Promise<string> {
    return `${await this.registry.metrics()}\n${await processMetrics().metrics()}`;
  }

  /** Serves GET /metrics on the metrics address; answers where it listens. */
  async listen(): Promise<string> {
    processMetrics();
    const server = createServer((request, response) => {
      const path = (request.url ?? '').split('?')[0];
      if (path !== METRICS_PATH || (request.method !== 'GET' && request.method !== 'HEAD')) {
        response
          .writeHead(404, { 'content-type': 'text/plain; charset=utf-8' })
          .end(`Metrics are at ${METRICS_PATH}\n`);
        return;
      }
      this.text().then(
        (text) => response.writeHead(200, { 'content-type': this.registry.contentType }).end(text),
        (err: Error) => response.writeHead(500, { 'content-type': 'text/plain' }).end(`${err.message}\n`),
      );
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      // Tagged, so that a failure at start names METRICS_HOST and METRICS_PORT, not HOST and PORT.
      const failed = (err: Error) => reject(Object.assign(err, { listener: 'metrics' }));
      server.once('error', failed);
      server.listen(this.settings.port, this.settings.host, () => {
        server.off('error', failed);
        resolve();
      });
    });
    const { address, port } = server.address() as AddressInfo;
    return `http://${address.includes(':') ? `[${address}]` : address}:${port}${METRICS_PATH}`;
  }

  async close(): Promise<void> {
    for (const stop of this.detach.splice(0)) stop();
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** The policy a rate_limited answer names: a limit's, a dependency away (`store-unavailable`), or a shutdown's 503. */
function refusingPolicy(refusal: ApiError): string {
  const unavailable = refusal.details?.unavailable;
  if (typeof unavailable === 'string') return `${unavailable}-unavailable`;
  return refusedPolicy(refusal)?.policy ?? (refusal.status === 503 ? 'shutdown' : 'other');
}
