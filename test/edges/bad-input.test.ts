import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import { type Harness, startServer } from '../helpers/harness.ts';
import { callTool, mcpClient } from '../helpers/mcp.ts';

/**
 * Input no operation would take, at the edges of HTTP: nesting, the router's own refusals, wrong
 * methods and content types. Every answer is the envelope, quoting the request id.
 */
interface Answer {
  status: number;
  headers: Headers;
  body: { error: { code: string; message: string; requestId: string; details?: Record<string, unknown> } };
}

async function send(url: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(url, init);
  const text = await res.text();
  let body: Answer['body'];
  try {
    body = JSON.parse(text);
  } catch {
    assert.fail(`not JSON (${res.status}): ${text.slice(0, 200)}`);
  }
  return { status: res.status, headers: res.headers, body };
}

/** The envelope with this status and code, whose requestId is the X-Request-Id answered. */
function assertEnvelope(a: Answer, status: number, code: string): Answer['body']['error'] {
  assert.equal(a.status, status, JSON.stringify(a.body));
  assert.deepEqual(Object.keys(a.body), ['error']);
  assert.equal(a.body.error.code, code, JSON.stringify(a.body));
  assert.equal(typeof a.body.error.message, 'string');
  assert.match(a.headers.get('content-type') ?? '', /^application\/json/);
  const id = a.headers.get('x-request-id');
  assert.ok(id, 'X-Request-Id answered');
  assert.equal(a.body.error.requestId, id, 'the body quotes the request id');
  return a.body.error;
}

const nested = (depth: number, leaf = '"x"') => '['.repeat(depth) + leaf + ']'.repeat(depth);

describe('bad input at the edges of HTTP', () => {
  let h: Harness;
  let key: string;
  let productId: string;
  let mcp: Client;
  const auth = () => ({ authorization: `Bearer ${key}` });
  const jsonHeaders = () => ({ ...auth(), 'content-type': 'application/json' });
  const mcpHeaders = () => ({
    ...jsonHeaders(),
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-11-25',
  });
  const toolCall = (name: string, args: string) =>
    `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"${name}","arguments":${args}}}`;

  before(async () => {
    h = await startServer();
    key = h.alice.writeKey;
    mcp = await mcpClient(h.mcpUrl, key);
    productId = (await callTool(mcp, 'create_guide', { name: 'Edges' })).body.productId;
  });
  after(async () => {
    await mcp?.close();
    await h?.close();
  });

  test('deeply nested JSON is 400 invalid_argument at any depth, on REST and MCP', async () => {
    // 4,400 levels is a 9 KB body; 100,000 levels is still far under the 2 MB limit.
    for (const depth of [65, 4400, 100_000]) {
      const rest = await send(`${h.baseUrl}/guides`, {
        method: 'POST',
        headers: jsonHeaders(),
        body: `{"name":${nested(depth)}}`,
      });
      assert.match(assertEnvelope(rest, 400, 'invalid_argument').message, /^\(body\): nested deeper than 64 levels/);
      const viaMcp = await send(h.mcpUrl, {
        method: 'POST',
        headers: mcpHeaders(),
        body: toolCall('create_guide', `{"name":${nested(depth)}}`),
      });
      assert.match(assertEnvelope(viaMcp, 400, 'invalid_argument').message, /nested deeper than 64 levels/);
    }
    // Under the bound, the operation's own validation answers, as for any wrong type.
    const shallow = await send(`${h.baseUrl}/guides`, {
      method: 'POST',
      headers: jsonHeaders(),
      body: `{"name":${nested(50)}}`,
    });
    assert.match(assertEnvelope(shallow, 400, 'invalid_argument').message, /^name: expected string/);
    const tool = await callTool(mcp, 'create_guide', { name: JSON.parse(nested(50)) });
    assert.equal(tool.isError, true);
    assert.equal(tool.body.error.code, 'invalid_argument');
    assert.match(tool.body.error.message, /^name: expected string/);
    const listed = await send(`${h.baseUrl}/guides`, { headers: auth() });
    assert.equal(listed.status, 200, 'nothing was written');
    assert.deepEqual(
      (listed.body as unknown as { guides: Array<{ name: string }> }).guides.map((g) => g.name),
      ['Edges'],
    );
  });

  test('bad percent-encoding in a path is 400 invalid_argument in the envelope', async () => {
    for (const path of [`/guides/%E0%A4%A`, `/guides/${productId}/spots/%zz`]) {
      const error = assertEnvelope(await send(h.baseUrl + path, { headers: auth() }), 400, 'invalid_argument');
      assert.match(error.message, /^\(path\): not valid percent-encoding/);
    }
  });

  test('a NUL in an id and a __proto__ field are refused naming them, in flat input as in nested', async () => {
    const nul = assertEnvelope(
      await send(`${h.baseUrl}/guides/gd_a%00b`, { headers: auth() }),
      400,
      'invalid_argument',
    );
    assert.match(nul.message, /^productId: contains the NUL character/);
    for (const body of ['{"__proto__":"x","name":"Flat"}', '{"name":"Nested","areas":{"__proto__":"x"}}']) {
      const refused = await send(`${h.baseUrl}/guides`, { method: 'POST', headers: jsonHeaders(), body });
      assert.match(assertEnvelope(refused, 400, 'invalid_argument').message, /__proto__.*no field has this name/);
    }
  });

  test('an id over 100 characters gets the operation’s own refusal, the one its tool gives', async () => {
    const id = 'g'.repeat(101);
    const rest = await send(`${h.baseUrl}/guides/${id}`, { headers: auth() });
    const error = assertEnvelope(rest, 400, 'invalid_argument');
    assert.match(error.message, /^productId: must be at most 100 characters/);
    const tool = await callTool(mcp, 'get_guide', { productId: id });
    const { requestId: _rest, ...fromRest } = error;
    const { requestId: _tool, ...fromTool } = tool.body.error;
    assert.deepEqual(fromTool, fromRest);
    // Very long ones too: the router does not cut them short.
    assertEnvelope(await send(`${h.baseUrl}/guides/${'g'.repeat(5000)}`, { headers: auth() }), 400, 'invalid_argument');
  });

  test('a URL over the 16 KB header limit is 413 payload_too_large in the envelope', async () => {
    const res = await send(`${h.baseUrl}/guides?name=${'a'.repeat(16 * 1024)}`, { headers: auth() });
    assert.match(assertEnvelope(res, 413, 'payload_too_large').message, /URL and headers are over the 16 KB limit/);
  });

  test('a known path with another method is 405 with Allow; an unknown path stays 404', async () => {
    const cases: Array<[string, string, RegExp]> = [
      ['PUT', `${h.baseUrl}/guides`, /^GET, HEAD, POST$/],
      ['DELETE', `${h.baseUrl}/me`, /\bGET\b/],
      ['PUT', `${h.baseUrl}/guides/${productId}`, /\bPATCH\b/],
      ['PUT', h.mcpUrl, /^(?=.*\bPOST\b)(?=.*\bGET\b)(?=.*\bDELETE\b)/],
    ];
    for (const [method, url, allow] of cases) {
      const res = await send(url, { method, headers: auth() });
      assert.equal(res.status, 405, `${method} ${url}`);
      assert.match(res.headers.get('allow') ?? '', allow);
      assert.equal(res.body.error.code, 'invalid_argument');
      assert.match(res.body.error.message, new RegExp(`^\\(method\\): ${method} is not served on `));
      assert.equal(res.body.error.requestId, res.headers.get('x-request-id'));
    }
    for (const url of [`${h.baseUrl}/nope`, `${h.baseUrl}/guides/${productId}/nowhere`, `${h.origin}/elsewhere`]) {
      const res = await send(url, { method: 'PUT', headers: auth() });
      assertEnvelope(res, 404, 'not_found');
      assert.equal(res.headers.get('allow'), null);
    }
  });

  test('JSON sent as text/plain gets the sentence a form body gets', async () => {
    const asText = await send(`${h.baseUrl}/guides`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'text/plain' },
      body: '{"name":"Typed wrong"}',
    });
    const asForm = await send(`${h.baseUrl}/guides`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=Typed+wrong',
    });
    const fromText = assertEnvelope(asText, 400, 'invalid_argument');
    const fromForm = assertEnvelope(asForm, 400, 'invalid_argument');
    assert.equal(fromText.message, '(body): send JSON with Content-Type: application/json');
    assert.equal(fromText.message, fromForm.message);
  });

  test('a tool error result quotes the request id of its HTTP request', async () => {
    const res = await fetch(h.mcpUrl, {
      method: 'POST',
      headers: { ...mcpHeaders(), 'x-request-id': 'quote-me-42' },
      body: toolCall('get_guide', '{"productId":"gd_missing"}'),
    });
    assert.equal(res.status, 200);
    const frame = (await res.text()).split('\n').find((line) => line.startsWith('data: '));
    assert.ok(frame);
    const result = JSON.parse(frame.slice(6)).result;
    assert.equal(result.isError, true);
    const body = JSON.parse(result.content[0].text);
    assert.deepEqual(Object.keys(body.error), ['code', 'message', 'requestId']);
    assert.equal(body.error.code, 'not_found');
    assert.equal(body.error.requestId, 'quote-me-42');
  });
});
