import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Harness, startServer } from '../helpers/harness.ts';
import { assertRefusalHeaders } from '../helpers/http.ts';

/** RFC 6750 challenges, and failed authentications limited per client address. */
interface Answer {
  status: number;
  headers: Headers;
  body: { error: { code: string; message: string; requestId: string; retryAfterMs?: number } };
}

const MCP_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
};
const TOOLS_LIST = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}';
const BAD_KEY = 'sk_service_this-key-was-never-issued-000';

async function send(url: string, key: string | undefined, init: RequestInit = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...(init.headers as Record<string, string>) };
  if (key !== undefined) headers.authorization = `Bearer ${key}`;
  const res = await fetch(url, { ...init, headers });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text.startsWith('{') ? JSON.parse(text) : text };
}

describe('authentication challenges', () => {
  let h: Harness;
  before(async () => {
    h = await startServer();
  });
  after(async () => h?.close());

  test('a refused key is Bearer error="invalid_token"; a missing key the bare Bearer challenge, on REST and /mcp', async () => {
    const mcp = (key: string | undefined) =>
      send(h.mcpUrl, key, { method: 'POST', headers: MCP_HEADERS, body: TOOLS_LIST });
    for (const answer of [await send(`${h.baseUrl}/me`, BAD_KEY), await mcp(BAD_KEY)]) {
      assert.equal(answer.status, 401);
      assert.equal(answer.body.error.code, 'invalid_api_key');
      assert.match(
        answer.headers.get('www-authenticate') ?? '',
        /^Bearer error="invalid_token", resource_metadata="http:\/\/[^"]+\/\.well-known\/oauth-protected-resource\/(mcp|api\/v1)", scope="read( write publish)?", DPoP algs="[^"]+"$/,
      );
    }
    for (const answer of [await send(`${h.baseUrl}/me`, undefined), await mcp(undefined)]) {
      assert.equal(answer.status, 401);
      assert.equal(answer.body.error.code, 'unauthenticated');
      assert.match(
        answer.headers.get('www-authenticate') ?? '',
        /^Bearer resource_metadata="http:\/\/[^"]+\/\.well-known\/oauth-protected-resource\/(mcp|api\/v1)", scope="read( write publish)?", DPoP algs="[^"]+"$/,
      );
    }
  });
});

describe('failed authentications per client address', () => {
  let h: Harness;
  before(async () => {
    h = await startServer({ env: { RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: '3' } });
  });
  after(async () => h?.close());

  test('good calls and missing keys do not count; past the limit every request from the address is 429', async () => {
    const me = (key: string | undefined) => send(`${h.baseUrl}/me`, key);
    for (let i = 0; i < 10; i++) assert.equal((await me(h.alice.readKey)).status, 200);
    for (let i = 0; i < 5; i++) assert.equal((await me(undefined)).status, 401, 'a missing key is no guess');

    for (let i = 0; i < 3; i++) {
      const refused = await me(`${BAD_KEY}${i}`);
      assert.equal(refused.status, 401, `failure ${i + 1} is still answered 401`);
      assert.equal(refused.body.error.code, 'invalid_api_key');
    }
    const limited = await me(`${BAD_KEY}x`);
    assert.equal(limited.status, 429, JSON.stringify(limited.body));
    assert.equal(limited.body.error.code, 'rate_limited');
    const wait = limited.body.error.retryAfterMs;
    assert.ok(wait !== undefined && wait > 0 && wait <= 60_000, String(wait));
    assertRefusalHeaders(limited);
    assert.equal(limited.body.error.requestId, limited.headers.get('x-request-id'));
    assert.match(limited.body.error.message, /failed authentications from this address/);

    // A key guessed right while blocked is refused too, and so is /mcp.
    const good = await me(h.alice.readKey);
    assert.equal(good.status, 429);
    assert.equal(good.body.error.code, 'rate_limited');
    const viaMcp = await send(h.mcpUrl, h.alice.readKey, { method: 'POST', headers: MCP_HEADERS, body: TOOLS_LIST });
    assert.equal(viaMcp.status, 429);
    assert.equal(viaMcp.body.error.code, 'rate_limited');
    assertRefusalHeaders(viaMcp);
  });
});

describe('failed authentications over /mcp count too', () => {
  let h: Harness;
  before(async () => {
    h = await startServer({ env: { RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: '2' } });
  });
  after(async () => h?.close());

  test('bad keys on /mcp block REST as well', async () => {
    const mcp = (key: string) => send(h.mcpUrl, key, { method: 'POST', headers: MCP_HEADERS, body: TOOLS_LIST });
    assert.equal((await mcp(`${BAD_KEY}1`)).status, 401);
    assert.equal((await mcp(`${BAD_KEY}2`)).status, 401);
    const limited = await mcp(`${BAD_KEY}3`);
    assert.equal(limited.status, 429);
    assert.equal(limited.body.error.code, 'rate_limited');
    assertRefusalHeaders(limited);
    assert.equal((await send(`${h.baseUrl}/me`, h.alice.readKey)).status, 429);
  });
});
