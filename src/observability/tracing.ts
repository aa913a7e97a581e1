import { FastifyOtelInstrumentation } from '@fastify/otel';
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
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TracingSettings } from '../config.ts';
import type { ApiError } from '../core/errors.ts';
import { API_VERSION } from '../core/versions.ts';
import type { Store } from '../db/database.ts';
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

/**
 * OpenTelemetry traces of one app: a span per request (from @fastify/otel, joined to the caller's
 * `traceparent` header), a span per MCP tool call (joined to the `traceparent` in the call's
 * `_meta`, where MCP 2026-07-28 clients put it) and a span per store statement, exported over
 * OTLP/HTTP. This module is imported only when an endpoint is configured.
 */
export class Tracing {
  private readonly provider: TracerProvider;
  private readonly tracer: Tracer;
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
  }

  /** Spans for every request and store statement. Call before any route or hook is added. */
  instrument(app: FastifyInstance, store: Store): void {
    // Labels first, so that they are on the request span before @fastify/otel ends it (in onSend,
    // or in onResponse for answers written straight to the socket).
    const label = (request: FastifyRequest) => {
      const span = request.opentelemetry().span;
      if (!span?.isRecording()) return;
      span.setAttribute('creator_api.transport', transportOf(request));
      span.setAttribute('creator_api.operation', operationOf(request));
      if (request.refusal) span.setAttribute('error.type', request.refusal.code);
    };
    app.addHook('onSend', (request, _reply, payload, done) => {
      label(request);
      done(null, payload);
    });
    app.addHook('onResponse', (request, _reply, done) => {
      label(request);
      done();
    });
    const instrumentation = new FastifyOtelInstrumentation({
      // A span per hook would multiply the cost for nothing an operator asks about.
      instrumentHooks: false,
      ignorePaths: ({ url }) => UNTRACED_PATHS.has(url.split('?')[0] ?? url),
      requestHook(span, request) {
        span.updateName(`${request.method} ${request.routeOptions.url ?? 'unknown route'}`);
      },
    });
    instrumentation.setTracerProvider(this.provider);
    // Run now, not through app.register, so that its route hook sees the routes added right after.
    instrumentation.plugin()(app, {}, () => {});
    this.detach.push(store.probe.attach({ statement: (sql) => this.statement(store.dialect, sql) }));
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
    const active = context.active();
    const requestSpan = request.opentelemetry().span;
    const sent = typeof meta?.traceparent === 'string' ? propagation.extract(ROOT_CONTEXT, meta) : undefined;
    const joined = sent !== undefined && trace.getSpanContext(sent) !== undefined;
    const parent: Context = joined ? sent : active;
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
