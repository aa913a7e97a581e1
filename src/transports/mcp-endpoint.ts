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
import type { FastifyReply, FastifyRequest } from 'fastify';
import { then } from '../core/at-once.ts';
import type { Principal } from '../core/auth.ts';
import { ApiError, internalError, logFailure, toApiError } from '../core/errors.ts';
import { invoke, type Runtime } from '../core/invoke.ts';
import type { Log } from '../core/log.ts';
import type { AnyOperation } from '../core/operation.ts';
import type { Registry } from '../core/registry.ts';
import { API_VERSION } from '../core/versions.ts';
import { stampReadsOf } from '../db/database.ts';
import type { Authenticate } from './authenticate.ts';
import { writeBody } from './compression.ts';
import { sendError } from './http-errors.ts';
import { type DirectMethod, MODERN_REVISION, type NodeHeaders, serveDirect } from './mcp-direct.ts';
import { type EarlyCall, earlyAuthentication, earlyToolCalls, type RecognizedCall } from './mcp-early.ts';
import { MCP_BODY_LIMIT, type McpOptions } from './mcp-options.ts';
import { ApiServer } from './mcp-server.ts';
import { jsonToolResult, recognizeToolCall, toolCallAnswer } from './mcp-tool-call.ts';
import type { EarlyPost } from './rest-early.ts';
import { toolListsByKey } from './tool-list.ts';

/** The 2025 revisions the SDK serves, and the modern revision it serves to clients that discover it. */
const SERVED_PROTOCOL_VERSIONS = [...SUPPORTED_PROTOCOL_VERSIONS, MODERN_REVISION];

/** What the Fastify hook (or the early path) learned about the caller, handed to the per-request server. */
interface CallerInfo {
  principal: Principal;
  requestId: string;
  log: Log;
  /**
   * The HTTP request carrying the call: metrics and traces read which error it answered. None when
   * answered before Fastify (mcp-early.ts), which happens only where neither is kept.
   */
  request?: FastifyRequest;
  /** Where the store's commit stamp reads stood as the request arrived (Call.arrival). */
  arrival: number | undefined;
}

/** A tool call's answer, and its error when it is one (the answer then carries it as text). */
interface ToolOutcome {
  result: CallToolResult;
  error?: ApiError;
}

/** Who answers: in `initialize` and `server/discover`, and in every 2026-07-28 result's `_meta`. */
const SERVER_INFO = Object.freeze({ name: 'creator-api', version: API_VERSION });

const INSTRUCTIONS =
  'Builds and edits travel guides for one creator. Call get_authoring_guide first for the rules, addresses and topics, ' +
  'then with the topic of the work at hand. ' +
  'Never invent prices or photo credits; confirm every delete with the creator first.';

/**
 * MCP over Streamable HTTP with the official SDK: a fresh low-level server per request, whose two
 * handlers dispatch to the operation registry. The tool list is built once per process; building a
 * high-level server with every tool registered on every request would cost more than the call.
 * A tool call in the official clients' own form is answered without a server, as the SDK would
 * answer it (mcp-tool-call.ts). Answers every request to /mcp once mcp.ts has loaded this module
 * (the first such request).
 */
export function mcpEndpoint(
  registry: Registry,
  runtime: Runtime,
  authenticate: Authenticate,
  options: McpOptions,
): {
  route: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
  /** The recognized calls' answerer before Fastify, when the app answers requests there. */
  early: EarlyPost | undefined;
} {
  const { allowedHosts, direct, observe, trace } = options;
  const toolsFor = toolListsByKey(registry);

  /** The tool's result; without a promise when the tool answers at once and no trace is recorded. */
  const runTool = (
    operation: AnyOperation,
    args: unknown,
    meta: Record<string, unknown> | undefined,
    caller: CallerInfo,
  ): CallToolResult | Promise<CallToolResult> => {
    const { request } = caller;
    if (trace && request) {
      return trace(request, operation.name, meta, async () => callTool(runtime, operation, args, caller)).then(
        ({ result }) => result,
      );
    }
    return then(callTool(runtime, operation, args, caller), ({ result }) => result);
  };

  /** A tools/call in the clients' own form of a tool MCP serves (mcp-tool-call.ts). */
  const recognize = (message: unknown, headers: NodeHeaders): RecognizedCall | undefined => {
    const call = recognizeToolCall(message, headers);
    const operation = call && registry.get(call.name);
    return call && operation && !operation.restOnly ? { call, operation } : undefined;
  };

  /**
   * A recognized call run and answered as the SDK would answer it; at once when nothing waits.
   * Answered early, its X-Request-Id goes first among the answer's headers, where the route's
   * setHeader puts it (Node's writeHead then takes the headers as they are, not one by one).
   */
  const answerRecognized = (
    { call, operation }: RecognizedCall,
    caller: CallerInfo,
    res: ServerResponse,
    early: boolean,
  ): void | Promise<void> =>
    then(runTool(operation, call.arguments, undefined, caller), (result) => {
      const answer = toolCallAnswer(call, result, SERVER_INFO);
      const headers = early ? { 'X-Request-Id': caller.requestId, ...answer.headers } : answer.headers;
      return then(writeBody(res, 200, headers, answer.body), () => observe?.('recognized', early));
    });

  /** A server for one request; a direct answer's registers only the handler it dispatches to. */
  const makeServer = (caller: CallerInfo | undefined, only?: DirectMethod): Server => {
    const server = new ApiServer(SERVER_INFO, {
      capabilities: { tools: { listChanged: false } },
      instructions: INSTRUCTIONS,
      supportedProtocolVersions: SERVED_PROTOCOL_VERSIONS,
    });
    if (only !== 'tools/call') {
      server.setRequestHandler('tools/list', async () => {
        if (!caller) throw new ProtocolError(ProtocolErrorCode.InternalError, 'Caller not authenticated');
        return toolsFor(caller.principal);
      });
    }
    if (only === 'tools/list') return server;
    server.setRequestHandler('tools/call', async (request) => {
      const operation = registry.get(request.params.name);
      if (!operation || operation.restOnly) {
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
      }
      if (!caller) throw new ProtocolError(ProtocolErrorCode.InternalError, 'Caller not authenticated');
      return runTool(operation, request.params.arguments, request.params._meta, caller);
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

  const route = async (request: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
    if (!callerPlaceAllowed(request.headers.host, request.headers.origin)) {
      return sendError(request, reply, new ApiError('forbidden', 'This host or origin may not call the MCP endpoint.'));
    }
    const arrival = stampReadsOf(runtime.db);
    let principal: Principal;
    try {
      // A refusal the early path met is sent here, not asked for (and counted) again.
      const authenticated = earlyAuthentication(request.raw) ?? authenticate(request);
      principal = authenticated instanceof Promise ? await authenticated : authenticated;
    } catch (err) {
      return sendError(request, reply, err);
    }
    const caller: CallerInfo = { principal, requestId: request.id, log: request.log, request, arrival };
    reply.hijack();
    reply.raw.setHeader('X-Request-Id', request.id);
    if (direct && request.method === 'POST' && isJsonContentType(request.headers['content-type'])) {
      try {
        const recognized = recognize(request.body, request.headers);
        if (recognized) {
          await answerRecognized(recognized, caller, reply.raw, false);
          return;
        }
        const answered = await serveDirect(
          request.body,
          request.headers,
          reply.raw,
          authInfoOf(caller),
          (method) => makeServer(caller, method),
          (response) => writeResponse(request, reply.raw, response),
        );
        if (answered) {
          observe?.('direct');
          return;
        }
      } catch (err) {
        await answerFailure(err, request, request.log, request.id, reply.raw);
        return;
      }
    }
    observe?.('sdk');
    await answer(handler, request, reply.raw, authInfoOf(caller));
  };

  const answerEarly = ({ principal, arrival, requestId, log, ...recognized }: EarlyCall, res: ServerResponse) => {
    const caller: CallerInfo = { principal, requestId, log, arrival };
    // No route to catch what fails here: the failure is answered as the route answers it, and a
    // failure to answer that ends the connection.
    const failed = (err: unknown) => {
      if (!res.headersSent) res.setHeader('X-Request-Id', requestId);
      answerFailure(err, { method: 'POST', body: undefined }, log, requestId, res).catch(() => res.destroy());
    };
    try {
      const answered = answerRecognized(recognized, caller, res, true);
      if (answered instanceof Promise) answered.catch(failed);
    } catch (err) {
      failed(err);
    }
  };
  const early =
    options.early && direct
      ? earlyToolCalls({
          recognize,
          authenticate,
          placeAllowed: callerPlaceAllowed,
          arrival: () => stampReadsOf(runtime.db),
          answer: answerEarly,
        })
      : undefined;
  return { route, early };
}

/** What a failure of our glue answers: the 500 below, or the end of an answer already begun. */
async function answerFailure(
  err: unknown,
  request: AnsweredRequest,
  log: Log,
  requestId: string,
  res: ServerResponse,
): Promise<void> {
  log.error({ err }, 'MCP direct answer failed');
  if (res.headersSent) res.end();
  else await writeResponse(request, res, rpcInternalError(requestId));
}

/** The caller as the SDK's paths carry it to the per-request server (the recognized path needs none). */
function authInfoOf(caller: CallerInfo): AuthInfo {
  const { principal } = caller;
  return {
    token: 'api-key',
    clientId: principal.keyId,
    scopes:
      principal.scope === 'write' ? (principal.publish ? ['read', 'write', 'publish'] : ['read', 'write']) : ['read'],
    extra: { caller },
  };
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

/** What writing an answer reads of its request. */
interface AnsweredRequest {
  method: string;
  body: unknown;
}

async function writeResponse(request: AnsweredRequest, res: ServerResponse, response: Response): Promise<void> {
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

/** The tool's outcome, without a promise when the operation answers at once (a cached read). */
function callTool(
  runtime: Runtime,
  operation: AnyOperation,
  args: unknown,
  caller: CallerInfo,
): ToolOutcome | Promise<ToolOutcome> {
  const failed = (err: unknown): ToolOutcome => {
    const apiError = toApiError(err, caller.requestId);
    logFailure(caller.log, err, { tool: operation.name });
    if (caller.request) caller.request.refusal = apiError;
    const text = JSON.stringify(apiError.toBody(caller.requestId));
    return { result: { content: [{ type: 'text', text }], isError: true }, error: apiError };
  };
  try {
    const outcome = then(invoke(runtime, operation, args ?? {}, caller), ({ result }): ToolOutcome => {
      // Sent once, as text, with no structuredContent: tools declare no output schema, so the
      // protocol asks for none, and a host that hands both copies to the model makes it read the
      // answer twice (docs/decisions/transports.md, "One copy of each answer"). The text is REST's
      // body (a cached view's JSON is made, and escaped, once); a document is its markdown.
      if (typeof result.markdown === 'string')
        return { result: { content: [{ type: 'text', text: result.markdown }] } };
      return { result: jsonToolResult(result) };
    });
    return outcome instanceof Promise ? outcome.catch(failed) : outcome;
  } catch (err) {
    return failed(err);
  }
}
