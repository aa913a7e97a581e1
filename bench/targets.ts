/**
 * What npm run bench measures. Each app target is measured beside the raw node:http server answering
 * the very bytes of that target's answer (its `against`), so every ratio compares the app with a
 * server that only writes the same bytes: get_guide (one guide record), list_spots (the first page
 * of a 2,000-spot guide), upsert_spots (the answer to a batch of 25 full spots, sent as the same request) and the
 * public sales page (the HTML buyers open).
 */
import { daysResult, sameBytes, toolResult, upsertResult } from './checks.ts';
import { type Answer, type BenchContext, type FixtureName, fixtureOf, type TargetRequest } from './context.ts';

interface TargetBase {
  name: string;
  fixture: FixtureName;
  request(ctx: BenchContext): TargetRequest;
  /** Problems with one answer; empty when it is what a client expects. */
  check(answer: Answer, ctx: BenchContext): string[];
}

/** A baseline: the raw node:http server answering its fixture's reference bytes at the same path. */
export interface RawTarget extends TargetBase {
  baseline: true;
}

/** The app under test, measured against the raw target named in `against` (same fixture, same bytes). */
export interface AppTarget extends TargetBase {
  baseline?: false;
  against: string;
  /** The goal as a fraction of its baseline's requests/s; none means "reported, not judged". */
  goal?: number;
}

/**
 * One thing to measure. To add one, append to `targets`: an app target names its raw baseline in
 * `against`; add a raw target for a new fixture with rawTarget(name, fixture).
 */
export type Target = RawTarget | AppTarget;

const LEGACY_PROTOCOL_VERSION = '2025-11-25';
const MODERN_PROTOCOL_VERSION = '2026-07-28';

export const targets: Target[] = [
  rawTarget('raw get_guide bytes', 'guide'),
  {
    name: 'REST get_guide',
    fixture: 'guide',
    against: 'raw get_guide bytes',
    // Issue 31's goal, won back from the 0.35 it had slipped to.
    goal: 0.45,
    request: rest('guide'),
    check: sameBytes('guide'),
  },
  {
    // A 2025-era client after initialize: no session, no envelope; the SDK serves it through its
    // stateless legacy fallback (WebStandardStreamableHTTPServerTransport), answering over SSE.
    name: 'MCP get_guide (2025 stateless)',
    fixture: 'guide',
    against: 'raw get_guide bytes',
    // Issue 31's goal for both client lines.
    goal: 0.2,
    request: mcpGetGuide('legacy'),
    check: toolResult('guide'),
  },
  {
    // A 2026-07-28 client: per-request _meta envelope plus the standard headers the SDK requires
    // (MCP-Protocol-Version, Mcp-Method, Mcp-Name); served by the modern path, answering JSON.
    name: 'MCP get_guide (2026-07-28)',
    fixture: 'guide',
    against: 'raw get_guide bytes',
    goal: 0.2,
    request: mcpGetGuide('modern'),
    check: toolResult('guide'),
  },
  // GET /guides/{id}/spots on a guide of 2,000 full spots: its first page (the goal: 30% of raw).
  rawTarget('raw list_spots bytes', 'spots2000'),
  {
    name: 'REST list_spots (first page of 2,000 spots)',
    fixture: 'spots2000',
    against: 'raw list_spots bytes',
    goal: 0.3,
    request: rest('spots2000'),
    check: sameBytes('spots2000'),
  },
  // The same batch of 25 full spots every time: after setup, every call finds all 25 unchanged
  // (read, checked, compared; nothing written) and answers compact. No goal.
  rawTarget('raw upsert_spots bytes', 'batch25'),
  {
    name: 'REST upsert_spots (25 full spots)',
    fixture: 'batch25',
    against: 'raw upsert_spots bytes',
    request: rest('batch25'),
    check: upsertResult('batch25'),
  },
  // The same 14 days of 10 stops every time: each call checks every reference and rewrites the row. No goal.
  rawTarget('raw set_itinerary_days bytes', 'trip14'),
  {
    name: 'REST set_itinerary_days (14 days of 10 stops)',
    fixture: 'trip14',
    against: 'raw set_itinerary_days bytes',
    request: rest('trip14'),
    check: daysResult('trip14'),
  },
  // The sales page buyers open (no key, HTML, ~20 KB), served to every buyer: goal half of raw.
  rawTarget('raw sales page bytes', 'salesPage'),
  {
    name: 'public sales page',
    fixture: 'salesPage',
    against: 'raw sales page bytes',
    goal: 0.5,
    request: (ctx) => ({ url: `${ctx.appOrigin}${fixtureOf(ctx, 'salesPage').path}`, method: 'GET', headers: {} }),
    check: sameBytes('salesPage'),
  },
];

function rawTarget(name: string, fixture: FixtureName): RawTarget {
  return {
    name,
    baseline: true,
    fixture,
    request: (ctx) => {
      const f = fixtureOf(ctx, fixture);
      const body = f.requestBody;
      const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
      return { url: `${ctx.rawOrigin}${f.path}`, method: f.method, headers, ...(body === undefined ? {} : { body }) };
    },
    check: sameBytes(fixture),
  };
}

/** The fixture's REST request to the app, with the key. */
function rest(fixture: FixtureName): (ctx: BenchContext) => TargetRequest {
  return (ctx) => {
    const f = fixtureOf(ctx, fixture);
    const headers: Record<string, string> = { authorization: `Bearer ${ctx.key}` };
    if (f.requestBody === undefined) return { url: `${ctx.appOrigin}${f.path}`, method: f.method, headers };
    headers['content-type'] = 'application/json';
    return { url: `${ctx.appOrigin}${f.path}`, method: f.method, headers, body: f.requestBody };
  };
}

/** The get_guide tool call of a 2025-era client ('legacy') or of a 2026-07-28 one ('modern'). */
export function mcpGetGuide(era: 'legacy' | 'modern'): (ctx: BenchContext) => TargetRequest {
  if (era === 'legacy') {
    return (ctx) => ({
      url: `${ctx.appOrigin}/mcp`,
      method: 'POST',
      headers: { ...mcpHeaders(ctx), 'mcp-protocol-version': LEGACY_PROTOCOL_VERSION },
      body: toolCall(ctx),
    });
  }
  return (ctx) => ({
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
  });
}

function mcpHeaders(ctx: BenchContext): Record<string, string> {
  return {
    authorization: `Bearer ${ctx.key}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
}

function toolCall(ctx: BenchContext, meta?: Record<string, unknown>): string {
  const productId = fixtureOf(ctx, 'guide').productId;
  const params = { name: 'get_guide', arguments: { productId }, ...(meta ? { _meta: meta } : {}) };
  return JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params });
}
