import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { extractKey } from '../core/auth.ts';
import { ApiError, toApiError } from '../core/errors.ts';
import { type Invocation, invoke, type Runtime } from '../core/invoke.ts';
import { jsonBytesOf } from '../core/json.ts';
import type { KeyStore } from '../core/keys.ts';
import type { RateLimitOutcome } from '../core/rate-limit.ts';
import type { Registry } from '../core/registry.ts';
import { InputMerger } from './input.ts';

export const API_PREFIX = '/api/v1';

/** Every operation as a route under /api/v1; nothing here knows any one operation. */
export function registerRest(app: FastifyInstance, registry: Registry, runtime: Runtime, keys: KeyStore): void {
  for (const operation of registry.operations) {
    const merger = new InputMerger(operation);
    app.route({
      method: operation.method,
      url: API_PREFIX + operation.path.replace(/\{(\w+)\}/g, ':$1'),
      handler: async (request, reply) => {
        try {
          const principal = await keys.authenticate(extractKey(request.headers));
          const input = merger.merge(
            request.params as Record<string, string>,
            request.query as Record<string, unknown>,
            request.body,
          );
          const call = { principal, requestId: request.id, log: request.log };
          const { result }: Invocation = await invoke(runtime, operation, input, call, (rate) =>
            setRateHeaders(reply, rate),
          );
          return reply.code(operation.successStatus).type('application/json; charset=utf-8').send(jsonBytesOf(result));
        } catch (err) {
          return sendError(request, reply, err);
        }
      },
    });
  }
}

/** The RateLimit fields of draft-ietf-httpapi-ratelimit-headers, for the tighter policy. */
function setRateHeaders(reply: FastifyReply, rate: RateLimitOutcome): void {
  const policies = rate.policies.map((p) => `"${p.policy}";q=${p.limit};w=${p.windowSeconds}`).join(', ');
  const t = rate.tightest;
  reply.header('RateLimit-Policy', policies);
  reply.header('RateLimit', `"${t.policy}";r=${t.remaining};t=${Math.ceil(t.resetMs / 1000)}`);
}

/** Every error answer is the specification's envelope; the cause of a 500 is logged, not sent. */
export function sendError(request: FastifyRequest, reply: FastifyReply, err: unknown): FastifyReply {
  const apiError = toApiError(err, request.id);
  if (!(err instanceof ApiError)) request.log.error({ err }, 'unexpected failure');
  if (apiError.code === 'rate_limited' && apiError.retryAfterMs !== undefined) {
    reply.header('Retry-After', String(Math.ceil(apiError.retryAfterMs / 1000)));
  }
  if (apiError.status === 401) reply.header('WWW-Authenticate', 'Bearer');
  return reply.code(apiError.status).send(apiError.toBody());
}
