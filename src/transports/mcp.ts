import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import {
  type AuthInfo,
  type CallToolResult,
  createMcpHandler,
  isJsonContentType,
  type McpHttpHandler,
  ProtocolError,
  ProtocolErrorCode,
  type Server,
  SUPPORTED_PROTOCOL_VERSIONS,
  validateHostHeader,
  validateOriginHeader,
} from '@modelcontextprotocol/server';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MCP_PATH } from '../core/addresses.ts';
import type { Principal } from '../core/auth.ts';
import { ApiError, internalError, toApiError } from '../core/errors.ts';
import { invoke, type Runtime } from '../core/invoke.ts';
import { jsonOf } from '../core/json.ts';
import type { Log } from '../core/log.ts';
import type { Registry } from '../core/registry.ts';
import { API_VERSION } from '../core/versions.ts';
import type { Authenticate } from './authenticate.ts';
import { writeBody } from './compression.ts';
import { sendError } from './http-errors.ts';
import { MODERN_REVISION, serveDirect } from './mcp-direct.ts';
import { ApiServer } from './mcp-server.ts';
import { describeTools, keyMayCall, type ToolDescription } from './tool-list.ts';

export { MCP_PATH };

const MCP_BODY_LIMIT = 2 * 1024 * 1024;

/** The 2025 revisions the SDK serves, and the modern revision it serves to clients that discover it. */
const SERVED_PROTOCOL_VERSIONS = [...SUPPORTED_PROTOCOL_VERSIONS, MODERN_REVISION];

/** Which path answered an MCP request: the direct answer of a tool call, or the SDK's full entry. */
export type McpPath = 'direct' | 'sdk';

/** What the Fastify hook learned about the caller, handed to the per-request server. */
interface CallerInfo {
  principal: Principal;
  requestId: string;
  log: Log;
  /** The HTTP request carrying the call: metrics and traces read which error it answered. */
  request: FastifyRequest;
}

/** A tool call's answer, and its error when it is one (the answer then carries it as text). */
interface ToolOutcome {
  result: CallToolResult;
  error?: ApiError;
}

/** Runs a tool call inside a trace span (tracing.ts): joined to the trace context in the call's `_meta`. */
export type ToolCallTracer = <T extends { error?: ApiError }>(
  request: FastifyRequest,
  tool: string,
  meta: Record<string, unknown> | undefined,
  run: () => Promise<T>,
) => Promise<T>;

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

const INSTRUCTIONS =
  'Builds and edits travel guides for one creator. Call get_authoring_guide first for the rules, addresses and topics, ' +
  'then with the topic of the work at hand. ' +
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
  authenticate: Authenticate,
  options: { allowedHosts: string[]; direct: boolean; observe?: (path: McpPath) => void; trace?: ToolCallTracer },
): void {
  const { allowedHosts, direct, observe, trace } = options;
  const toolsFor = toolListsByKey(registry);

  const makeServer = (caller: CallerInfo | undefined): Server => {
    const server = new ApiServer(
      { name: 'creator-api', version: API_VERSION },
      {
        capabilities: { tools: { listChanged: false } },
        instructions: INSTRUCTIONS,
        supportedProtocolVersions: SERVED_PROTOCOL_VERSIONS,
      },
    );
    server.setRequestHandler('tools/list', async () => {
      if (!caller) throw new ProtocolError(ProtocolErrorCode.InternalError, 'Caller not authenticated');
      return toolsFor(caller.principal);
    });
    server.setRequestHandler('tools/call', async (request) => {
      const operation = registry.get(request.params.name);
      if (!operation || operation.restOnly) {
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
      }
      if (!caller) throw new ProtocolError(ProtocolErrorCode.InternalError, 'Caller not authenticated');
      const run = () => callTool(runtime, operation, request.params.arguments, caller);
      const { result } = trace ? await trace(caller.request, operation.name, request.params._meta, run) : await run();
      return result;
    });
    return server;
  };
  const handler = createMcpHandler(
    (ctx) => makeServer((ctx.authInfo?.extra as { caller?: CallerInfo } | undefined)?.caller),
    { maxRequestBodySize: MCP_BODY_LIMIT },
  );

  const callerPlaceAllowed = rememberVerdicts((host: string | undefined, origin: string | undefined) => {
    return validateHostHeader(host, allowedHosts).ok && validateOriginHeader(origin, allowedHosts).ok;
  });

  const serve = async (request: FastifyRequest, reply: import('fastify').FastifyReply) => {
    request.operationName = operationOfMessage(request.body, registry);
    if (!callerPlaceAllowed(request.headers.host, request.headers.origin)) {
      return sendError(request, reply, new ApiError('forbidden', 'This host or origin may not call the MCP endpoint.'));
    }
    let principal: Principal;
    try {
      principal = await authenticate(request);
    } catch (err) {
      return sendError(request, reply, err);
    }
    const caller: CallerInfo = { principal, requestId: request.id, log: request.log, request };
    const auth: AuthInfo = {
      token: 'api-key',
      clientId: principal.keyId,
      scopes:
        principal.scope === 'write' ? (principal.publish ? ['read', 'write', 'publish'] : ['read', 'write']) : ['read'],
      extra: { caller },
    };
    reply.hijack();
    reply.raw.setHeader('X-Request-Id', request.id);
    if (direct && request.method === 'POST' && isJsonContentType(request.headers['content-type'])) {
      try {
        const answered = await serveDirect(
          request.body,
          request.headers,
          reply.raw,
          auth,
          () => makeServer(caller),
          (response) => writeResponse(request, reply.raw, response),
        );
        if (answered) {
          observe?.('direct');
          return;
        }
      } catch (err) {
        request.log.error({ err }, 'MCP direct answer failed');
        if (reply.raw.headersSent) reply.raw.end();
        else await writeResponse(request, reply.raw, rpcInternalError(request.id));
        return;
      }
    }
    observe?.('sdk');
    await answer(handler, request, reply.raw, auth);
  };

  app.route({
    method: ['POST', 'GET', 'DELETE'],
    url: MCP_PATH,
    bodyLimit: MCP_BODY_LIMIT,
    config: { transport: 'mcp' },
    handler: serve,
  });
}

/**
 * A key's tools/list holds the tools it may call (a read key's, only the reads): what a model holds
 * before it works is what it can use. Calling a tool left out still answers api_scope_required, as
 * REST does. The three lists are built once per process.
 */
function toolListsByKey(registry: Registry): (principal: Principal) => { tools: ToolDescription[] } {
  const listFor = (key: Pick<Principal, 'scope' | 'publish'>) => ({
    tools: describeTools(registry.tools.filter((op) => keyMayCall(key, op))),
  });
  const read = listFor({ scope: 'read', publish: false });
  const write = listFor({ scope: 'write', publish: false });
  const publish = listFor({ scope: 'write', publish: true });
  return (principal) => (principal.scope !== 'write' ? read : principal.publish ? publish : write);
}

/**
 * The SDK's web-standard handler behind Fastify. Unlike the generic Node adapter it neither
 * serializes the already-parsed body again nor streams a JSON answer in pieces: a JSON answer is
 * written in one go, and only event streams are piped.
 */
async function answer(
  handler: McpHttpHandler,
  request: FastifyRequest,
  res: ServerResponse,
  authInfo: AuthInfo,
): Promise<void> {
  // A stream left open (a listen subscription) must end when its client goes away.
  const abort = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) abort.abort();
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || name === 'content-length' || name === 'transfer-encoding') continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  const web = new Request(`http://${request.headers.host ?? 'localhost'}${request.url}`, {
    method: request.method,
    headers,
    signal: abort.signal,
  });
  let response: Response;
  try {
    response = await handler.fetch(web, { authInfo, ...(request.body !== undefined && { parsedBody: request.body }) });
  } catch (err) {
    request.log.error({ err }, 'MCP handler failed');
    response = rpcInternalError(request.id);
  }
  await writeResponse(request, res, response);
}

/** An unexpected failure of our glue around the SDK: REST's internal_error, as a JSON-RPC error. */
function rpcInternalError(requestId: string): Response {
  const { message } = internalError(requestId);
  return Response.json(
    { jsonrpc: '2.0', error: { code: ProtocolErrorCode.InternalError, message, data: { requestId } }, id: null },
    { status: 500 },
  );
}

async function writeResponse(request: FastifyRequest, res: ServerResponse, response: Response): Promise<void> {
  const outHeaders: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    outHeaders[name] = value;
  });
  // A stateless POST's event stream ends with its answer: write it in one go. Only a listen
  // subscription stays open, and is piped as it comes.
  const listens = (request.body as { method?: unknown } | undefined)?.method === 'subscriptions/listen';
  const streaming = (response.headers.get('content-type') ?? '').includes('text/event-stream');
  if (!response.body || !streaming || (request.method === 'POST' && !listens)) {
    const body = Buffer.from(response.body ? await response.arrayBuffer() : new ArrayBuffer(0));
    await writeBody(res, response.status, outHeaders, body);
    return;
  }
  res.writeHead(response.status, outHeaders);
  res.flushHeaders();
  try {
    for await (const chunk of response.body) {
      if (!res.write(chunk)) await once(res, 'drain');
    }
  } catch {
    // The client went away mid-stream; nothing more to send.
  }
  res.end();
}

/**
 * The SDK's Host and Origin checks parse URLs on every call; a service sees few distinct pairs, so
 * their verdicts are kept (up to a bound, so a flood of made-up hosts cannot grow the map).
 */
function rememberVerdicts(
  check: (host: string | undefined, origin: string | undefined) => boolean,
): (host: string | undefined, origin: string | undefined) => boolean {
  const verdicts = new Map<string, boolean>();
  return (host, origin) => {
    const key = `${host ?? ''}\n${origin ?? ''}`;
    let verdict = verdicts.get(key);
    if (verdict === undefined) {
      verdict = check(host, origin);
      if (verdicts.size < 256) verdicts.set(key, verdict);
    }
    return verdict;
  };
}

async function callTool(
  runtime: Runtime,
  operation: import('../core/operation.ts').AnyOperation,
  args: unknown,
  caller: CallerInfo,
): Promise<ToolOutcome> {
  try {
    const { result } = await invoke(runtime, operation, args ?? {}, caller);
    // Sent once, as text, with no structuredContent: tools declare no output schema, so the
    // protocol asks for none, and a host that hands both copies to the model makes it read the
    // answer twice (docs/decisions/transports.md, "One copy of each answer"). The text is REST's
    // body (a cached view's JSON is made once); a document is its markdown.
    const text = typeof result.markdown === 'string' ? result.markdown : jsonOf(result);
    return { result: { content: [{ type: 'text', text }] } };
  } catch (err) {
    const apiError = toApiError(err, caller.requestId);
    if (!(err instanceof ApiError)) caller.log.error({ err, tool: operation.name }, 'unexpected failure');
    caller.request.refusal = apiError;
    const text = JSON.stringify(apiError.toBody(caller.requestId));
    return { result: { content: [{ type: 'text', text }], isError: true }, error: apiError };
  }
}
