import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_PREFIX } from '../core/addresses.ts';
import type { OperationScope } from '../core/auth.ts';
import { type Invocation, invoke, type Runtime } from '../core/invoke.ts';
import { jsonBytesOf } from '../core/json.ts';
import type { AnyOperation } from '../core/operation.ts';
import type { Registry } from '../core/registry.ts';
import type { Authenticate } from './authenticate.ts';
import { sendJson } from './compression.ts';
import { sendError } from './http-errors.ts';
import { InputMerger } from './input.ts';
import { setRateHeaders } from './rate-limit-headers.ts';
import { drainUnread, readUploadBody, type UploadBody } from './upload-body.ts';

export { API_PREFIX };

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The scope the operation a REST route serves needs: a refusal's challenge names it. */
    scope?: OperationScope;
  }
}

/** Every operation as a route under /api/v1; nothing here knows any one operation. */
export function registerRest(
  app: FastifyInstance,
  registry: Registry,
  runtime: Runtime,
  authenticate: Authenticate,
): void {
  const uploads = registry.operations.filter((op) => op.body.kind !== 'json');
  for (const operation of registry.operations) {
    if (operation.body.kind === 'json') app.route(routeOf(operation, runtime, authenticate));
  }
  if (uploads.length === 0) return;
  // Upload routes read their own bodies, after the key is checked: a scope of their own, where
  // multipart forms and any other content type reach the handler unread.
  app.register(async (scope) => {
    await scope.register(multipart);
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    for (const operation of uploads) scope.route(routeOf(operation, runtime, authenticate));
  });
}

function routeOf(operation: AnyOperation, runtime: Runtime, authenticate: Authenticate) {
  const merger = new InputMerger(operation);
  const body = operation.body;
  return {
    method: operation.method,
    url: API_PREFIX + operation.path.replace(/\{(\w+)\}/g, ':$1'),
    config: { transport: 'rest' as const, operation: operation.name, scope: operation.scope },
    ...(body.kind === 'json' && body.maxBytes !== undefined && { bodyLimit: body.maxBytes }),
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      try {
        const principal = await authenticate(request);
        const upload: UploadBody | undefined = body.kind === 'json' ? undefined : await readUploadBody(request, body);
        const input = merger.merge(
          request.params as Record<string, string>,
          request.query as Record<string, unknown>,
          request.body,
          upload?.fields,
        );
        const call = { principal, requestId: request.id, log: request.log, uploads: upload?.uploads };
        const { result }: Invocation = await invoke(runtime, operation, input, call, (rate) =>
          setRateHeaders(reply, rate),
        );
        if (operation.location) reply.header('Location', API_PREFIX + operation.location(result, input));
        return sendJson(request, reply.code(operation.successStatus), jsonBytesOf(result));
      } catch (err) {
        if (body.kind !== 'json') drainUnread(request);
        return sendError(request, reply, err);
      }
    },
  };
}
