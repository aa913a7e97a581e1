import { isDeepStrictEqual } from 'node:util';

/** What the bench knows about the running servers and the guide record they serve. */
export interface BenchContext {
  rawOrigin: string;
  appOrigin: string;
  key: string;
  productId: string;
  /** The exact bytes and content type of GET /api/v1/guides/{id}, fetched once. */
  reference: { body: Buffer; contentType: string; json: unknown };
}

export interface TargetRequest {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
}

export interface Answer {
  status: number;
  contentType: string;
  body: Buffer;
}

/**
 * One thing to measure. The first target with `baseline: true` is the denominator of every ratio.
 * To add a target, append a definition to `targets` below: a request, a check of one answer, and
 * (optionally) the ratio to the baseline it should reach.
 */
export interface Target {
  name: string;
  baseline?: boolean;
  /** The goal as a fraction of the baseline's requests/s; none means "reported, not judged". */
  goal?: number;
  request(ctx: BenchContext): TargetRequest;
  /** Problems with one answer; empty when it is what a client expects. */
  check(answer: Answer, ctx: BenchContext): string[];
}

const LEGACY_PROTOCOL_VERSION = '2025-11-25';
const MODERN_PROTOCOL_VERSION = '2026-07-28';

export const targets: Target[] = [
  {
    name: 'raw node:http',
    baseline: true,
    request: (ctx) => ({ url: `${ctx.rawOrigin}/api/v1/guides/${ctx.productId}`, method: 'GET', headers: {} }),
    check: sameBytes,
  },
  {
    name: 'REST get_guide',
    goal: 0.35,
    request: (ctx) => ({
      url: `${ctx.appOrigin}/api/v1/guides/${ctx.productId}`,
      method: 'GET',
      headers: { authorization: `Bearer ${ctx.key}` },
    }),
    check: sameBytes,
  },
  {
    // A 2025-era client after initialize: no session, no envelope; the SDK serves it through its
    // stateless legacy fallback (WebStandardStreamableHTTPServerTransport), answering over SSE.
    name: 'MCP get_guide (2025 stateless)',
    goal: 0.12,
    request: (ctx) => ({
      url: `${ctx.appOrigin}/mcp`,
      method: 'POST',
      headers: { ...mcpHeaders(ctx), 'mcp-protocol-version': LEGACY_PROTOCOL_VERSION },
      body: toolCall(ctx),
    }),
    check: toolResult,
  },
  {
    // A 2026-07-28 client: per-request _meta envelope plus the standard headers the SDK requires
    // (MCP-Protocol-Version, Mcp-Method, Mcp-Name); served by the modern path, answering JSON.
    name: 'MCP get_guide (2026-07-28)',
    goal: 0.12,
    request: (ctx) => ({
      url: `${ctx.appOrigin}/mcp`,
      method: 'POST',
      headers: {
        ...mcpHeaders(ctx),
        'mcp-protocol-version': MODERN_PROTOCOL_VERSION,
        'mcp-method': 'tools/call',
        'mcp-name': 'get_guide',
      },
      body: toolCall(ctx, {
        'io.modelcontextprotocol/protocolVersion': MODERN_PROTOCOL_VERSION,
        'io.modelcontextprotocol/clientInfo': { name: 'creator-api-bench', version: '1.0.0' },
        'io.modelcontextprotocol/clientCapabilities': {},
      }),
    }),
    check: toolResult,
  },
];

function mcpHeaders(ctx: BenchContext): Record<string, string> {
  return {
    authorization: `Bearer ${ctx.key}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
}

function toolCall(ctx: BenchContext, meta?: Record<string, unknown>): string {
  const params = { name: 'get_guide', arguments: { productId: ctx.productId }, ...(meta ? { _meta: meta } : {}) };
  return JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params });
}

function sameBytes(answer: Answer, ctx: BenchContext): string[] {
  const problems: string[] = [];
  if (answer.status !== 200) problems.push(`status ${answer.status}, expected 200`);
  if (answer.contentType !== ctx.reference.contentType) {
    problems.push(`content-type "${answer.contentType}", expected "${ctx.reference.contentType}"`);
  }
  if (!answer.body.equals(ctx.reference.body)) problems.push(`body differs: ${preview(answer.body)}`);
  return problems;
}

/** A JSON-RPC success whose tool result carries the guide, as structured content and as text. */
function toolResult(answer: Answer, ctx: BenchContext): string[] {
  if (answer.status !== 200) return [`status ${answer.status}, expected 200: ${preview(answer.body)}`];
  let message: { id?: unknown; result?: Record<string, unknown>; error?: unknown };
  try {
    message = parseJsonRpc(answer);
  } catch (err) {
    return [`unreadable answer (${(err as Error).message}): ${preview(answer.body)}`];
  }
  if (message.error !== undefined) return [`JSON-RPC error: ${JSON.stringify(message.error)}`];
  const result = message.result;
  if (message.id !== 1 || result === undefined) return [`not a result for id 1: ${preview(answer.body)}`];
  if (result.isError === true) return [`tool error: ${JSON.stringify(result.content)}`];
  const problems: string[] = [];
  if (!isDeepStrictEqual(result.structuredContent, ctx.reference.json)) {
    problems.push('structuredContent differs from the REST record');
  }
  const text = (result.content as Array<{ type?: string; text?: string }> | undefined)?.[0]?.text;
  if (text === undefined || !isDeepStrictEqual(JSON.parse(text), ctx.reference.json)) {
    problems.push('text content differs from the REST record');
  }
  return problems;
}

/** JSON, or the one `data:` message of an SSE answer. */
function parseJsonRpc(answer: Answer): { id?: unknown; result?: Record<string, unknown>; error?: unknown } {
  const text = answer.body.toString('utf8');
  if (!answer.contentType.startsWith('text/event-stream')) return JSON.parse(text);
  const data = text
    .split(/\r?\n\r?\n/)
    .map((event) =>
      event
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trimStart())
        .join('\n'),
    )
    .filter((d) => d !== '');
  if (data.length !== 1) throw new Error(`${data.length} SSE data messages, expected 1`);
  return JSON.parse(data[0]!);
}

function preview(body: Buffer): string {
  const text = body.toString('utf8');
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
