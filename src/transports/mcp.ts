import { toNodeHandler } from '@modelcontextprotocol/node';
import {
  type AuthInfo,
  type CallToolResult,
  createMcpHandler,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  validateHostHeader,
  validateOriginHeader,
} from '@modelcontextprotocol/server';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { extractKey, type Principal } from '../core/auth.ts';
import { ApiError, toApiError } from '../core/errors.ts';
import { invoke, type Runtime } from '../core/invoke.ts';
import type { KeyStore } from '../core/keys.ts';
import type { Log } from '../core/log.ts';
import type { Registry } from '../core/registry.ts';
import { API_VERSION } from '../core/versions.ts';
import { sendError } from './rest.ts';
import { describeTool, type ToolDescription } from './tool-list.ts';

export const MCP_PATH = '/mcp';
const MCP_BODY_LIMIT = 2 * 1024 * 1024;

/** What the Fastify hook learned about the caller, handed to the per-request server. */
interface CallerInfo {
  principal: Principal;
  requestId: string;
  log: Log;
}

const INSTRUCTIONS =
  'Builds and edits travel guides for one creator. Call get_authoring_guide once for the workflow, rules and limits. ' +
  'Never invent prices or photo credits; confirm every delete with the creator first.';

/**
 * MCP over Streamable HTTP with the official SDK: a fresh low-level server per request, whose two
 * handlers dispatch to the operation registry. The tool list is built once per process; building a
 * high-level server with every tool registered on every request would cost more than the call.
 */
export function registerMcp(
  app: FastifyInstance,
  registry: Registry,
  runtime: Runtime,
  keys: KeyStore,
  allowedHosts: string[],
): void {
  const tools: ToolDescription[] = registry.tools.map(describeTool);
  const toolsResult = { tools };

  const handler = createMcpHandler(
    (ctx) => {
      const caller = (ctx.authInfo?.extra as { caller?: CallerInfo } | undefined)?.caller;
      const server = new Server(
        { name: 'creator-api', version: API_VERSION },
        { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS },
      );
      server.setRequestHandler('tools/list', async () => toolsResult);
      server.setRequestHandler('tools/call', async (request) => {
        const operation = registry.get(request.params.name);
        if (!operation || operation.restOnly) {
          throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
        }
        if (!caller) throw new ProtocolError(ProtocolErrorCode.InternalError, 'Caller not authenticated');
        return callTool(runtime, operation, request.params.arguments, caller);
      });
      return server;
    },
    { maxRequestBodySize: MCP_BODY_LIMIT },
  );
  const nodeHandler = toNodeHandler(handler);

  const serve = async (request: FastifyRequest, reply: import('fastify').FastifyReply) => {
    const host = validateHostHeader(request.headers.host, allowedHosts);
    const origin = validateOriginHeader(request.headers.origin, allowedHosts);
    if (!host.ok || !origin.ok) {
      return sendError(request, reply, new ApiError('forbidden', 'This host or origin may not call the MCP endpoint.'));
    }
    let principal: Principal;
    try {
      principal = await keys.authenticate(extractKey(request.headers));
    } catch (err) {
      return sendError(request, reply, err);
    }
    const caller: CallerInfo = { principal, requestId: request.id, log: request.log };
    const auth: AuthInfo = {
      token: 'api-key',
      clientId: principal.keyId,
      scopes:
        principal.scope === 'write' ? (principal.publish ? ['read', 'write', 'publish'] : ['read', 'write']) : ['read'],
      extra: { caller },
    };
    (request.raw as typeof request.raw & { auth?: AuthInfo }).auth = auth;
    reply.hijack();
    reply.raw.setHeader('X-Request-Id', request.id);
    await nodeHandler(request.raw, reply.raw, request.body);
  };

  app.route({ method: ['POST', 'GET', 'DELETE'], url: MCP_PATH, bodyLimit: MCP_BODY_LIMIT, handler: serve });
}

async function callTool(
  runtime: Runtime,
  operation: import('../core/operation.ts').AnyOperation,
  args: unknown,
  caller: CallerInfo,
): Promise<CallToolResult> {
  try {
    const { result } = await invoke(runtime, operation, args ?? {}, caller);
    return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result };
  } catch (err) {
    const apiError = toApiError(err, caller.requestId);
    if (!(err instanceof ApiError)) caller.log.error({ err, tool: operation.name }, 'unexpected failure');
    return { content: [{ type: 'text', text: JSON.stringify(apiError.toBody()) }], isError: true };
  }
}
