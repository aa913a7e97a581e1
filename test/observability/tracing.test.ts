import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { Client as Sdk1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Sdk1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { testDialects } from '../helpers/dialects.ts';
import { startServer } from '../helpers/harness.ts';
import { answerOf, mcpClient } from '../helpers/mcp.ts';
import { type ReceivedSpan, startOtlpReceiver } from './otlp-receiver.ts';

const SERVER = 2;
const CLIENT = 3;
const ERROR = 2;

/** A caller's trace context: a fresh trace and span id, sampled unless told otherwise. */
function callerContext(sampled = true) {
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-${sampled ? '01' : '00'}` };
}

function statementsUnder(spans: readonly ReceivedSpan[], parent: ReceivedSpan): ReceivedSpan[] {
  return spans.filter((s) => s.parentSpanId === parent.spanId && s.kind === CLIENT);
}

/** Every span below `root` in its trace, however deep. */
function descendants(spans: readonly ReceivedSpan[], root: ReceivedSpan): ReceivedSpan[] {
  const found: ReceivedSpan[] = [];
  let level = [root];
  while (level.length > 0) {
    const ids = new Set(level.map((s) => s.spanId));
    level = spans.filter((s) => s.traceId === root.traceId && s.parentSpanId !== undefined && ids.has(s.parentSpanId));
    found.push(...level);
  }
  return found;
}

for (const { dialect, skip } of await testDialects()) {
  describe(`OpenTelemetry traces to an OTLP endpoint (${dialect})`, { skip }, () => {
    const dbSystem = dialect === 'postgres' ? 'postgresql' : 'sqlite';
    const rest = callerContext();
    const modern = callerContext();
    const legacy = callerContext();
    const failing = callerContext();
    const unsampled = callerContext(false);
    let received: { spans: ReceivedSpan[]; posts: string[] };
    let malformedGuide: string;

    before(async () => {
      const receiver = await startOtlpReceiver();
      received = receiver;
      const h = await startServer({ dialect, env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint } });
      try {
        const headers = { authorization: `Bearer ${h.alice.writeKey}`, 'content-type': 'application/json' };
        const made = await fetch(`${h.baseUrl}/guides`, {
          method: 'POST',
          headers: { ...headers, traceparent: rest.traceparent },
          body: JSON.stringify({ name: 'Traced over REST' }),
        });
        assert.equal(made.status, 201);
        const quiet = await fetch(`${h.baseUrl}/guides`, {
          method: 'POST',
          headers: { ...headers, traceparent: unsampled.traceparent },
          body: JSON.stringify({ name: 'Not sampled by its caller' }),
        });
        assert.equal(quiet.status, 201);

        // The official 2.x client (MCP 2026-07-28) puts the caller's context in the call's _meta.
        const client = await mcpClient(h.mcpUrl, h.alice.writeKey);
        const ok = await client.callTool({
          name: 'create_guide',
          arguments: { name: 'Traced over MCP' },
          _meta: { traceparent: modern.traceparent, tracestate: 'vendor=abc' },
        });
        assert.notEqual(ok.isError, true);
        const refused = await client.callTool({
          name: 'get_guide',
          arguments: { productId: 'gd_nosuchguide0000' },
          _meta: { traceparent: failing.traceparent },
        });
        assert.equal(refused.isError, true);
        const malformed = await client.callTool({
          name: 'create_guide',
          arguments: { name: 'Malformed context' },
          _meta: { traceparent: 'not-a-traceparent' },
        });
        assert.notEqual(malformed.isError, true, 'a bad traceparent never fails the call');
        malformedGuide = answerOf<{ productId: string }>(malformed).body.productId;
        await client.close();

        // A 2025-era client (SDK 1.x) may send it the same way.
        const old = new Sdk1Client({ name: 'sdk1', version: '1.0.0' });
        await old.connect(
          new Sdk1Transport(new URL(h.mcpUrl), { requestInit: { headers: { authorization: headers.authorization } } }),
        );
        const legacyAnswer = await old.callTool({
          name: 'create_guide',
          arguments: { name: 'Traced over MCP 2025' },
          _meta: { traceparent: legacy.traceparent },
        });
        assert.notEqual(legacyAnswer.isError, true);
        await old.close();

        assert.equal((await fetch(`${h.origin}/healthz`)).status, 200);
        assert.equal((await fetch(`${h.origin}/readyz`)).status, 200);
      } finally {
        // Closing sends every span still buffered.
        await h.close();
      }
    });

    it('are sent over OTLP/HTTP to the endpoint’s /v1/traces', () => {
      assert.ok(received.posts.length > 0);
      for (const post of received.posts) assert.match(post, /^POST \/v1\/traces application\/json/);
    });

    it('a REST call joins the caller’s traceparent, with a child span per store statement', () => {
      const trace = received.spans.filter((s) => s.traceId === rest.traceId);
      const request = trace.find((s) => s.kind === SERVER);
      assert.ok(request, `a request span in the caller's trace: ${JSON.stringify(trace.map((s) => s.name))}`);
      assert.equal(request.parentSpanId, rest.spanId, 'a child of the caller’s span');
      assert.equal(request.name, 'POST /api/v1/guides');
      assert.equal(request.attributes['creator_api.operation'], 'create_guide');
      assert.equal(request.attributes['creator_api.transport'], 'rest');
      assert.equal(request.attributes['http.response.status_code'], 201);
      const statements = descendants(received.spans, request).filter((s) => s.kind === CLIENT);
      const insert = statements.find((s) => String(s.attributes['db.query.text']).startsWith('insert into "guides"'));
      assert.ok(insert, `the insert is a span: ${statements.map((s) => s.attributes['db.query.text']).join(' | ')}`);
      assert.equal(insert.attributes['db.system.name'], dbSystem);
      assert.equal(insert.attributes['db.operation.name'], 'insert');
      assert.ok(!String(insert.attributes['db.query.text']).includes('Traced over REST'), 'values never in the text');
      assert.ok(
        statements.some((s) => s.name === 'commit'),
        'the commit too',
      );
    });

    it('an MCP tools/call joins the traceparent in its _meta; its store statements are its children', () => {
      for (const caller of [modern, legacy]) {
        const trace = received.spans.filter((s) => s.traceId === caller.traceId);
        const tool = trace.find((s) => s.name === 'tools/call create_guide');
        assert.ok(tool, `a tool span in the caller's trace: ${JSON.stringify(trace.map((s) => s.name))}`);
        assert.equal(tool.parentSpanId, caller.spanId);
        assert.equal(tool.kind, SERVER);
        assert.equal(tool.attributes['mcp.method.name'], 'tools/call');
        assert.equal(tool.attributes['gen_ai.tool.name'], 'create_guide');
        const statements = statementsUnder(received.spans, tool);
        assert.ok(
          statements.some((s) => String(s.attributes['db.query.text']).startsWith('insert into "guides"')),
          'the insert is a child of the tool call',
        );
        // The HTTP request that carried it is its own span, linked from the tool call.
        const [link] = tool.links;
        assert.ok(link, 'linked to the HTTP request');
        const request = received.spans.find((s) => s.spanId === link.spanId);
        assert.equal(request?.name, 'POST /mcp');
        assert.equal(request?.attributes['creator_api.operation'], 'create_guide');
      }
    });

    it('a tool error marks its span with the error code', () => {
      const tool = received.spans.find((s) => s.traceId === failing.traceId && s.name === 'tools/call get_guide');
      assert.ok(tool);
      assert.equal(tool.status.code, ERROR);
      assert.equal(tool.attributes['error.type'], 'not_found');
      const request = received.spans.find((s) => s.spanId === tool.links[0]?.spanId);
      assert.equal(request?.attributes['error.type'], 'not_found', 'and the HTTP request that carried it');
    });

    it('a malformed traceparent is ignored: the tool call is a child of its HTTP request', () => {
      const insert = received.spans.find(
        (s) =>
          s.kind === CLIENT &&
          String(s.attributes['db.query.text']).startsWith('insert into "guides"') &&
          received.spans.some(
            (t) => t.spanId === s.parentSpanId && t.name === 'tools/call create_guide' && t.links.length === 0,
          ),
      );
      assert.ok(insert, `a call with a bad traceparent still traced (${malformedGuide})`);
      const tool = received.spans.find((s) => s.spanId === insert.parentSpanId) as ReceivedSpan;
      const handler = received.spans.find((s) => s.spanId === tool.parentSpanId);
      assert.ok(handler, 'under the request');
      assert.equal(handler.traceId, tool.traceId);
    });

    it('a caller that did not sample its trace gets none recorded; health probes are not traced', () => {
      assert.deepEqual(
        received.spans.filter((s) => s.traceId === unsampled.traceId),
        [],
      );
      const paths = received.spans.map((s) => s.attributes['url.path']);
      assert.ok(!paths.includes('/healthz') && !paths.includes('/readyz'));
    });
  });
}

describe('OpenTelemetry traces sampled at 0 (OTEL_TRACES_SAMPLER_ARG=0)', () => {
  const sampledRest = callerContext();
  const sampledTool = callerContext();
  let spans: ReceivedSpan[];

  before(async () => {
    const receiver = await startOtlpReceiver();
    const h = await startServer({
      dialect: 'sqlite',
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_TRACES_SAMPLER_ARG: '0' },
    });
    try {
      const headers = { authorization: `Bearer ${h.alice.writeKey}`, 'content-type': 'application/json' };
      const post = (extra: Record<string, string>, name: string) =>
        fetch(`${h.baseUrl}/guides`, {
          method: 'POST',
          headers: { ...headers, ...extra },
          body: JSON.stringify({ name }),
        });
      assert.equal((await post({}, 'No caller context')).status, 201);
      assert.equal((await post({ traceparent: sampledRest.traceparent }, 'Sampled by its caller')).status, 201);
      const client = await mcpClient(h.mcpUrl, h.alice.writeKey);
      assert.notEqual(
        (await client.callTool({ name: 'create_guide', arguments: { name: 'Untraced tool' } })).isError,
        true,
      );
      const traced = await client.callTool({
        name: 'create_guide',
        arguments: { name: 'Tool sampled by its caller' },
        _meta: { traceparent: sampledTool.traceparent },
      });
      assert.notEqual(traced.isError, true);
      await client.close();
    } finally {
      await h.close();
    }
    spans = receiver.spans;
  });

  it('records nothing of a call whose caller sent no sampled context', () => {
    const traces = new Set(spans.map((s) => s.traceId));
    assert.deepEqual([...traces].sort(), [sampledRest.traceId, sampledTool.traceId].sort());
  });

  it('still records a caller’s sampled trace whole: the request and its statements', () => {
    const request = spans.find((s) => s.traceId === sampledRest.traceId && s.kind === SERVER);
    assert.equal(request?.name, 'POST /api/v1/guides');
    assert.equal(request?.parentSpanId, sampledRest.spanId);
    assert.ok(descendants(spans, request).some((s) => s.kind === CLIENT && s.name === 'insert'));
  });

  it('records a tool call whose _meta names a sampled trace, under that trace, though its request is not', () => {
    const tool = spans.find((s) => s.traceId === sampledTool.traceId && s.name === 'tools/call create_guide');
    assert.ok(tool, JSON.stringify(spans.map((s) => s.name)));
    assert.equal(tool.parentSpanId, sampledTool.spanId);
    assert.deepEqual(tool.links, [], 'no request span to link to');
    assert.ok(statementsUnder(spans, tool).some((s) => s.name === 'insert'));
  });
});
