import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MCP_PATH } from '../core/addresses.ts';
import type { Runtime } from '../core/invoke.ts';
import type { Registry } from '../core/registry.ts';
import type { Authenticate } from './authenticate.ts';
import { replayedBody } from './mcp-early.ts';
import { MCP_BODY_LIMIT, type McpOptions } from './mcp-options.ts';

type PayloadDone = (err: Error | null, payload: Readable) => void;

export { MCP_PATH };

/** The JSON-RPC methods a client may send that metrics name; any other counts as `other`. */
const RPC_METHODS = new Set([
  'initialize',
  'ping',
  'server/discover',
  'subscriptions/listen',
  'tools/list',
  'tools/call',
  'notifications/initialized',
  'notifications/cancelled',
]);

/** What an MCP message called, from a fixed set: a tool's name, a known method, `batch` or `other`. */
function operationOfMessage(body: unknown, registry: Registry): string | null {
  if (typeof body !== 'object' || body === null) return null;
  if (Array.isArray(body)) return 'batch';
  const { method, params } = body as { method?: unknown; params?: { name?: unknown } };
  if (method === 'tools/call') {
    const name = params?.name;
    const operation = typeof name === 'string' ? registry.get(name) : undefined;
    return operation && !operation.restOnly ? operation.name : 'tools/call';
  }
  return typeof method === 'string' && RPC_METHODS.has(method) ? method : 'other';
}

/**
 * POST, GET and DELETE /mcp (mcp-endpoint.ts answers them). The MCP SDK and the tool lists are
 * loaded by the first request to /mcp, not by the start: a process that serves only REST, pages or
 * the studio never loads them (docs/decisions/performance.md, "Loaded when used").
 */
export function registerMcp(
  app: FastifyInstance,
  registry: Registry,
  runtime: Runtime,
  authenticate: Authenticate,
  options: McpOptions,
): void {
  let endpoint: Promise<(request: FastifyRequest, reply: FastifyReply) => Promise<unknown>> | undefined;
  app.route({
    method: ['POST', 'GET', 'DELETE'],
    url: MCP_PATH,
    bodyLimit: MCP_BODY_LIMIT,
    config: { transport: 'mcp' },
    // A body read before Fastify and handed over (mcp-early.ts) is parsed from the same bytes.
    ...(options.early && {
      preParsing: (request: FastifyRequest, _reply: FastifyReply, payload: Readable, done: PayloadDone) =>
        done(null, replayedBody(request.raw) ?? payload),
    }),
    handler: async (request, reply) => {
      request.operationName = operationOfMessage(request.body, registry);
      endpoint ??= import('./mcp-endpoint.ts').then(({ mcpEndpoint }) => {
        const { route, early } = mcpEndpoint(registry, runtime, authenticate, options);
        if (early) options.early?.addPost(MCP_PATH, early);
        return route;
      });
      return (await endpoint)(request, reply);
    },
  });
}
