import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_PREFIX } from '../core/addresses.ts';
import type { OperationScope } from '../core/auth.ts';
import type { Runtime } from '../core/invoke.ts';
import type { Registry } from '../core/registry.ts';
import type { Authenticate } from './authenticate.ts';
import { sendJson } from './compression.ts';
import { sendError } from './http-errors.ts';
import { setRateHeaders } from './rate-limit-headers.ts';
import { type EarlyReads, takeEarlyOutcome } from './rest-early.ts';
import { RestRoute } from './rest-route.ts';
import { drainUnread, readUploadBody, releaseUploadBody } from './upload-body.ts';

export { API_PREFIX };

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The scope the operation a REST route serves needs: a refusal's challenge names it. */
    scope?: OperationScope;
  }
}

/**
 * Every operation as a route under /api/v1; nothing here knows any one operation. The GET routes
 * are also given to `early`, which answers their plainest requests before Fastify routes them.
 */
export function registerRest(
  app: FastifyInstance,
  registry: Registry,
  runtime: Runtime,
  authenticate: Authenticate,
  early?: EarlyReads,
): void {
  const uploads = registry.operations.filter((op) => op.body.kind !== 'json');
  for (const operation of registry.operations) {
    if (operation.body.kind !== 'json') continue;
    const route = new RestRoute(operation, runtime, authenticate);
    const options = routeOf(route);
    app.route(options);
    if (operation.method === 'GET') early?.add(options.url, route);
  }
  if (uploads.length === 0) return;
  // Upload routes read their own bodies, after the key is checked: a scope of their own, where
  // multipart forms and any other content type reach the handler unread.
  app.register(async (scope) => {
    await scope.register(multipart);
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    for (const operation of uploads) scope.route(routeOf(new RestRoute(operation, runtime, authenticate)));
  });
}

function routeOf(route: RestRoute) {
  const { operation } = route;
  const body = operation.body;
  const readUpload =
    body.kind === 'json' ? undefined : (request: FastifyRequest) => () => readUploadBody(request, body);
  return {
    method: operation.method,
    url: API_PREFIX + operation.path.replace(/\{(\w+)\}/g, ':$1'),
    config: { transport: 'rest' as const, operation: operation.name, scope: operation.scope },
    ...(body.kind === 'json' && body.maxBytes !== undefined && { bodyLimit: body.maxBytes }),
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      // A read rest-early.ts already ran, handed over for its answer to be sent here.
      const outcome =
        takeEarlyOutcome(request.raw) ??
        (await route.call(
          request,
          request.id,
          request.log,
          request.params as Record<string, string>,
          request.query as Record<string, unknown>,
          request.body,
          readUpload?.(request),
        ));
      if (readUpload) releaseUploadBody(request);
      if (outcome.rate) setRateHeaders(reply, outcome.rate);
      if (outcome.failed) {
        if (readUpload) drainUnread(request);
        return sendError(request, reply, outcome.error);
      }
      if (outcome.location !== undefined) reply.header('Location', outcome.location);
      return sendJson(request, reply.code(outcome.status), outcome.body);
    },
  };
}
