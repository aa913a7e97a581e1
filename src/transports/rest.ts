import type { FastifyInstance, FastifyReply } from 'fastify';
import { type Invocation, invoke, type Runtime } from '../core/invoke.ts';
import { jsonBytesOf } from '../core/json.ts';
import type { RateLimitOutcome } from '../core/rate-limit.ts';
import type { Registry } from '../core/registry.ts';
import type { Authenticate } from './authenticate.ts';
import { sendError } from './http-errors.ts';
import { InputMerger } from './input.ts';

export const API_PREFIX = '/api/v1';

/** Every operation as a route under /api/v1; nothing here knows any one operation. */
export function registerRest(
  app: FastifyInstance,
  registry: Registry,
  runtime: Runtime,
  authenticate: Authenticate,
): void {
  for (const operation of registry.operations) {
    const merger = new InputMerger(operation);
    app.route({
      method: operation.method,
      url: API_PREFIX + operation.path.replace(/\{(\w+)\}/g, ':$1'),
      handler: async (request, reply) => {
        try {
          const principal = await authenticate(request);
          const input = merger.merge(
            request.params as Record<string, string>,
            request.query as Record<string, unknown>,
            request.body,
          );
          const call = { principal, requestId: request.id, log: request.log };
          const { result }: Invocation = await invoke(runtime, operation, input, call, (rate) =>
            setRateHeaders(reply, rate),
          );
          if (operation.location) reply.header('Location', API_PREFIX + operation.location(result, input));
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
