import type { IncomingHttpHeaders } from 'node:http';
import {
  type Attributes,
  type Context,
  context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TracingSettings } from '../config.ts';
import type { ApiError } from '../core/errors.ts';
import { API_VERSION } from '../core/versions.ts';
import type { Store } from '../db/store-interface.ts';
import type { EndOfCall } from '../db/store-probe.ts';
import { operationOf, transportOf } from '../transports/request-labels.ts';

/** Probes are asked every few seconds: a trace each would drown the others. */
const UNTRACED_PATHS = new Set(['/healthz', '/readyz']);

let processWide = false;
/** The context manager and propagator are the process's, set once whatever number of apps it runs. */
function setUpProcess(): void {
  if (processWide) return;
  processWide = true;
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
}

declare module 'fastify' {
  interface FastifyRequest {
    /** This request's span, when its trace is recorded; null when it is not (unsampled, probes). */
    traceSpan: Span | null;
    /** The context holding traceSpan, in which the request's body is read and its handler runs. */
    traceContext: Context | null;
  }
}

/**
 * OpenTelemetry traces of one app: a span per request (joined to the caller's `traceparent`
 * header), a span per MCP tool call (joined to the `traceparent` in the call's `_meta`, where MCP
 * 2026-07-28 clients put it) and a span per store statement, exported over OTLP/HTTP. This module
 * is imported only when an endpoint is configured.
 *
 * The request span is this module's own few hooks rather than @fastify/otel's: the sampling decision
 * comes first, and a request whose trace is not recorded costs one header look-up and nothing else
 * (no span object, no context entered, no wrapped handler), so sampling at 0 costs what tracing off
 * does (docs/decisions/running.md).
 */
export class Tracing {
  private readonly provider: TracerProvider;
  private readonly tracer: Tracer;
  /** Whether a request without a caller's trace context can be sampled at all. */
  private readonly samplesNewTraces: boolean;
  private readonly detach: Array<() => void> = [];

  constructor(settings: TracingSettings) {
    setUpProcess();
    this.provider = new TracerProvider({
      resource: resourceFromAttributes({ 'service.name': settings.serviceName, 'service.version': API_VERSION }),
      // A caller that sampled its trace gets it whole; new traces are sampled at the ratio.
      sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(settings.sampleRatio) }),
      spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: settings.endpoint }) })],
    });
    this.tracer = this.provider.getTracer('creator-api', API_VERSION);
    this.samplesNewTraces = settings.sampleRatio > 0;
  }

  /**
   * Spans for every request and store statement. Call before any route or hook is added. Of
   * Fastify's hooks only `onRequest` runs for every request (and `onError` for failed ones): a
   * request whose trace is recorded gets its own listeners, so one that is not runs no hook runner
   * of a stage that has no other hook (`preHandler`, `onResponse`).
   */
  instrument(app: FastifyInstance, store: Store): void {
    app.decorateRequest('traceSpan', null);
    app.decorateRequest('traceContext', null);
    app.addHook('onRequest', (request, reply, done) => {
      const recorded = this.startRequest(request, reply);
      if (!recorded) return done();
      context.with(recorded, done);
    });
    app.addHook('onError', (request, _reply, error, done) => {
      if (request.traceSpan) failSpan(request.traceSpan, error.name, error);
      done();
    });
    this.detach.push(store.probe.attach({ statement: (sql) => this.statement(store.dialect, sql) }));
  }

  /** Ends the request's span once its answer is sent, or its connection lost. */
  private endRequest(request: FastifyRequest, reply: FastifyReply): void {
    const span = request.traceSpan;
    if (!span) return;
    request.traceSpan = null;
    span.setAttribute('http.response.status_code', reply.statusCode);
    span.setAttribute('creator_api.transport', transportOf(request));
    span.setAttribute('creator_api.operation', operationOf(request));
    if (request.refusal) span.setAttribute('error.type', request.refusal.code);
    if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  }

  /**
   * Whether a request with these headers may have its trace recorded: when it carries a caller's
   * context (followed either way, parent-based sampling) or new traces are sampled at all. When not,
   * its onRequest hook does nothing, so it may be answered without Fastify (rest-early.ts).
   */
  mayRecord(headers: IncomingHttpHeaders): boolean {
    return headers.traceparent !== undefined || this.samplesNewTraces;
  }

  /** Starts the request's span when its trace is recorded: the context to run it in, else undefined. */
  private startRequest(request: FastifyRequest, reply: FastifyReply): Context | undefined {
    // Unsampled: nothing made.
    if (!this.mayRecord(request.headers)) return undefined;
    const sent = request.headers.traceparent;
    const path = request.url.split('?')[0] ?? request.url;
    if (UNTRACED_PATHS.has(path)) return undefined;
    const parent = sent === undefined ? ROOT_CONTEXT : propagation.extract(ROOT_CONTEXT, request.headers);
    const route = request.routeOptions.url;
    const attributes: Attributes = { 'http.request.method': request.method, 'url.path': path };
    if (route !== undefined) attributes['http.route'] = route;
    const span = this.tracer.startSpan(
      `${request.method} ${route ?? 'unknown route'}`,
      { kind: SpanKind.SERVER, attributes },
      parent,
    );
    if (!span.isRecording()) return undefined;
    request.traceSpan = span;
    request.traceContext = trace.setSpan(parent, span);
    // A body is read on the socket's events, outside the context entered in onRequest: its
    // listeners run in it, and so does the handler the last of them calls.
    context.bind(request.traceContext, request.raw);
    // 'close' comes after the answer's last byte, and also when the connection is lost first.
    reply.raw.once('close', () => this.endRequest(request, reply));
    return request.traceContext;
  }

  /** A store statement's span, under the call that runs it; none outside a traced call (sweeps, probes). */
  private statement(dialect: Store['dialect'], sql: string): EndOfCall {
    const parent = context.active();
    if (!trace.getSpan(parent)) return () => {};
    const operation = /^\s*(\w+)/.exec(sql)?.[1]?.toLowerCase() ?? 'statement';
    const attributes: Attributes = {
      'db.system.name': dialect === 'postgres' ? 'postgresql' : 'sqlite',
      'db.operation.name': operation,
      // Parameters are placeholders: no value the caller sent is in the text.
      'db.query.text': sql,
    };
    const span = this.tracer.startSpan(operation, { kind: SpanKind.CLIENT, attributes }, parent);
    return (failed) => {
      if (failed !== undefined) failSpan(span, failed instanceof Error ? failed.name : 'error', failed);
      span.end();
    };
  }

  /**
   * Runs an MCP tool call in its span: a child of the trace context the client sent in the call's
   * `_meta` (`traceparent`, `tracestate`), linked to the span of the HTTP request that carried it;
   * without one, a child of the request's span. Store statements inside are its children.
   */
  toolCall<T extends { error?: ApiError }>(
    request: FastifyRequest,
    tool: string,
    meta: Record<string, unknown> | undefined,
    run: () => Promise<T>,
  ): Promise<T> {
    const requestSpan = request.traceSpan;
    const sent = typeof meta?.traceparent === 'string' ? propagation.extract(ROOT_CONTEXT, meta) : undefined;
    const joined = sent !== undefined && trace.getSpanContext(sent) !== undefined;
    // A request whose trace is not recorded makes no tool span of its own, unless the call names a trace.
    if (!joined && requestSpan === null) return run();
    const parent: Context = joined ? sent : (request.traceContext ?? context.active());
    const span = this.tracer.startSpan(
      `tools/call ${tool}`,
      {
        kind: SpanKind.SERVER,
        attributes: {
          'mcp.method.name': 'tools/call',
          'gen_ai.tool.name': tool,
          'gen_ai.operation.name': 'execute_tool',
        },
        ...(joined && requestSpan && { links: [{ context: requestSpan.spanContext() }] }),
      },
      parent,
    );
    if (!span.isRecording()) return run();
    return context.with(trace.setSpan(parent, span), async () => {
      try {
        const outcome = await run();
        if (outcome.error) failSpan(span, outcome.error.code, outcome.error);
        return outcome;
      } catch (err) {
        failSpan(span, 'internal_error', err);
        throw err;
      } finally {
        span.end();
      }
    });
  }

  /** Stops watching and sends every span still buffered. */
  async shutdown(): Promise<void> {
    for (const stop of this.detach.splice(0)) stop();
    await this.provider.shutdown();
  }
}

function failSpan(span: Span, type: string, err: unknown): void {
  span.setAttribute('error.type', type);
  span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
}
