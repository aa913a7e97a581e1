import type { ServerResponse } from 'node:http';
import {
  type AuthInfo,
  classifyInboundRequest,
  type JSONRPCMessage,
  type JSONRPCRequest,
  PerRequestHTTPServerTransport,
  type Server,
  SUPPORTED_PROTOCOL_VERSIONS,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';
import { headerText } from '../core/headers.ts';
import { writeBody } from './compression.ts';

/** The modern revision answered directly; any other (a newer one the SDK may learn) takes the SDK's entry. */
export const MODERN_REVISION = '2026-07-28';

/** The tool methods answered directly; every other method (discovery, listen, ping...) takes the SDK's entry. */
const DIRECT_METHODS = new Set<string>(['tools/call', 'tools/list']);
export type DirectMethod = 'tools/call' | 'tools/list';

export type NodeHeaders = Record<string, string | string[] | undefined>;

/** What the SDK's stateless 2025 transport checks of the headers before it dispatches a request. */
export function legacyHeadersServable(headers: NodeHeaders): boolean {
  const accept = headerText(headers.accept) ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) return false;
  const version = headerText(headers['mcp-protocol-version']);
  if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return false;
  return headers['mcp-session-id'] === undefined;
}

/**
 * The hot path of /mcp after the recognized calls (mcp-tool-call.ts): a well-formed tools/call or
 * tools/list POST, from a 2026-07-28 client or a stateless 2025 one. The SDK still classifies the request and a fresh SDK server (from the same
 * factory as the SDK's entry) validates and dispatches it; only the HTTP leg is ours, so there is
 * no web Request, no stream and no second serialization. Anything else, malformed or unusual,
 * answers false, and the SDK's full entry answers it with its own checks and errors.
 */
export async function serveDirect(
  body: unknown,
  headers: NodeHeaders,
  res: ServerResponse,
  authInfo: AuthInfo,
  /** A fresh SDK server with the handler of this method (it needs no other). */
  makeServer: (method: DirectMethod) => Server,
  writeResponse: (response: Response) => Promise<void>,
): Promise<boolean> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const method = (body as { method?: unknown }).method;
  if (typeof method !== 'string' || !DIRECT_METHODS.has(method)) return false;
  const direct = method as DirectMethod;
  const protocolVersionHeader = headerText(headers['mcp-protocol-version']);
  const mcpMethodHeader = headerText(headers['mcp-method']);
  const mcpNameHeader = headerText(headers['mcp-name']);
  const route = classifyInboundRequest({
    httpMethod: 'POST',
    ...(protocolVersionHeader !== undefined && { protocolVersionHeader }),
    ...(mcpMethodHeader !== undefined && { mcpMethodHeader }),
    ...(mcpNameHeader !== undefined && { mcpNameHeader }),
    body,
  });

  if (route.kind === 'modern' && route.messageKind === 'request') {
    // The SDK's entry also requires the standard headers, and Mcp-Name to match the tool.
    if (route.classification.revision !== MODERN_REVISION || protocolVersionHeader !== MODERN_REVISION) return false;
    if (mcpMethodHeader !== method) return false;
    if (method === 'tools/call' && mcpNameHeader !== (route.message.params as { name?: unknown }).name) return false;
    const server = makeServer(direct);
    const transport = new DirectModernTransport(route.classification, route.message.id, res);
    await server.connect(transport);
    const outcome = await Promise.race([transport.answered, transport.handleMessage(route.message, { authInfo })]);
    if (outcome !== true) await writeResponse(outcome);
    return true;
  }

  if (route.kind === 'legacy' && route.reason === 'no-claim') {
    if (!legacyHeadersServable(headers)) return false;
    const request = body as JSONRPCRequest;
    const server = makeServer(direct);
    const transport = new DirectLegacyTransport(request.id, res);
    await server.connect(transport);
    transport.onmessage?.(request, { authInfo });
    await transport.answered;
    return true;
  }
  return false;
}

/**
 * The SDK's single-exchange transport, writing a successful result straight onto the Node
 * response. Errors (with the HTTP status the SDK gives each) and streamed notifications stay with
 * the SDK, whose answer then comes back as a web Response from handleMessage.
 */
class DirectModernTransport extends PerRequestHTTPServerTransport {
  readonly #requestId: JSONRPCRequest['id'];
  readonly #res: ServerResponse;
  #streamed = false;
  #answered: (written: true) => void = () => {};
  readonly answered = new Promise<true>((resolve) => {
    this.#answered = resolve;
  });

  constructor(
    classification: ConstructorParameters<typeof PerRequestHTTPServerTransport>[0]['classification'],
    requestId: JSONRPCRequest['id'],
    res: ServerResponse,
  ) {
    super({ classification });
    this.#requestId = requestId;
    this.#res = res;
  }

  override async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (this.#streamed || !('result' in message) || message.id !== this.#requestId) {
      if (!('result' in message) && !('error' in message)) this.#streamed = true;
      return super.send(message, options);
    }
    await writeBody(this.#res, 200, JSON_ANSWER_HEADERS, Buffer.from(JSON.stringify(message)));
    this.#answered(true);
  }
}

/** The headers of a 2026-07-28 JSON answer, as the SDK's per-request transport writes them. */
export const JSON_ANSWER_HEADERS = { 'content-type': 'application/json' };

/** The headers of a stateless 2025 answer, as the SDK's streamable HTTP transport writes them. */
export const EVENT_STREAM_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
};

/**
 * One stateless 2025 exchange, answered as the SDK's streamable HTTP transport answers it: an event
 * stream carrying whatever the server sends for the request, ending with its response.
 */
class DirectLegacyTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  readonly #requestId: JSONRPCRequest['id'];
  readonly #res: ServerResponse;
  #answered: () => void = () => {};
  readonly answered = new Promise<void>((resolve) => {
    this.#answered = resolve;
  });

  constructor(requestId: JSONRPCRequest['id'], res: ServerResponse) {
    this.#requestId = requestId;
    this.#res = res;
  }

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const terminal = 'result' in message || 'error' in message;
    const related = terminal ? message.id : options?.relatedRequestId;
    if (related !== this.#requestId || this.#res.writableEnded) return;
    const frame = `event: message\ndata: ${JSON.stringify(message)}\n\n`;
    if (!terminal) {
      if (!this.#res.headersSent) this.#res.writeHead(200, EVENT_STREAM_HEADERS);
      this.#res.write(frame);
      return;
    }
    if (this.#res.headersSent) {
      this.#res.end(frame);
    } else {
      await writeBody(this.#res, 200, EVENT_STREAM_HEADERS, Buffer.from(frame));
    }
    this.#answered();
  }

  async close(): Promise<void> {
    if (!this.#res.writableEnded) this.#res.end();
    this.#answered();
    this.onclose?.();
  }
}
