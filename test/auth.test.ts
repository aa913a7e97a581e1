import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { assertError } from './helpers/answers.ts';
import { testDialects } from './helpers/dialects.ts';
import { DPOP_CHALLENGE } from './helpers/dpop.ts';
import { type Harness, startServer } from './helpers/harness.ts';
import { rest } from './helpers/http.ts';
import { callTool, mcpClient } from './helpers/mcp.ts';

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'auth-tests', version: '1' } },
};

/** One raw POST to the MCP endpoint: what the HTTP layer answers before any JSON-RPC. */
async function rawMcp(mcpUrl: string, headers: Record<string, string>, body: unknown = INITIALIZE) {
  const res = await fetch(mcpUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  const json = res.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : undefined;
  return { status: res.status, headers: res.headers, text, body: json };
}

/** The official client with whatever headers a test wants to send. */
async function connectWith(mcpUrl: string, headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'auth-tests', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { requestInit: { headers } }));
  return client;
}

/** The client fails, and the HTTP answer behind the failure carried this status and code. */
async function assertClientRefused(attempt: Promise<unknown>, status: number, code: string): Promise<void> {
  await assert.rejects(attempt, (err: Error & { data?: { status?: number } }) => {
    assert.match(err.message, new RegExp(`"code":"${code}"`));
    if (err.data?.status !== undefined) assert.equal(err.data.status, status);
    return true;
  });
}

/** whoami over MCP, with the official client sending these headers, answers this creator. */
async function assertMcpCaller(mcpUrl: string, headers: Record<string, string>, creatorId: string): Promise<void> {
  const client = await connectWith(mcpUrl, headers);
  try {
    const me = await callTool(client, 'whoami');
    assert.equal(me.isError, false);
    assert.equal(me.body.creatorId, creatorId);
  } finally {
    await client.close();
  }
}

const unknownKey = () => `sk_service_${randomBytes(24).toString('base64url')}`;

for (const { dialect, skip } of await testDialects()) {
  describe(`authentication (${dialect})`, { skip }, () => {
    let h: Harness;
    let aliceGuideId: string;

    before(async () => {
      h = await startServer({ dialect });
      const created = await rest(h.baseUrl, h.alice.writeKey, 'POST', '/guides', { name: 'Alice in the Alps' });
      assert.equal(created.status, 201);
      aliceGuideId = created.body.productId;
    });
    after(() => h?.close());

    test('no key: REST answers 401 unauthenticated with WWW-Authenticate: Bearer', async () => {
      for (const [method, path, scope] of [
        ['GET', '/me', 'read'],
        ['GET', '/guides', 'read'],
        ['POST', '/guides', 'read write'],
        ['GET', `/guides/${aliceGuideId}`, 'read'],
      ] as const) {
        const res = await rest(h.baseUrl, undefined, method, path, method === 'POST' ? { name: 'x' } : undefined);
        assertError(res, 'unauthenticated');
        // RFC 9728: the challenge names where an OAuth client starts (the protected resource
        // metadata) and the scopes the operation needs (MCP 2025-11-25).
        assert.equal(
          res.headers.get('www-authenticate'),
          `Bearer resource_metadata="${h.origin}/.well-known/oauth-protected-resource/api/v1", scope="${scope}", ${DPOP_CHALLENGE}`,
        );
      }
      const blank = await rest(h.baseUrl, undefined, 'GET', '/me', undefined, { 'x-api-key': '' });
      assertError(blank, 'unauthenticated');
    });

    test('no key: MCP answers HTTP 401 with the envelope and the header; the client cannot connect', async () => {
      const res = await rawMcp(h.mcpUrl, {});
      assertError(res, 'unauthenticated');
      assert.equal(
        res.headers.get('www-authenticate'),
        `Bearer resource_metadata="${h.origin}/.well-known/oauth-protected-resource/mcp", scope="read write publish", ${DPOP_CHALLENGE}`,
      );
      const call = await rawMcp(
        h.mcpUrl,
        {},
        {
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: { name: 'whoami', arguments: {} },
        },
      );
      assertError(call, 'unauthenticated');
      await assertClientRefused(connectWith(h.mcpUrl, {}), 401, 'unauthenticated');
    });

    test('unknown, revoked and expired keys: 401 invalid_api_key on REST and MCP', async () => {
      const revoked = await h.keys.create({ creatorId: h.alice.creatorId, scope: 'write', publish: false });
      assert.equal((await rest(h.baseUrl, revoked.key, 'GET', '/me')).status, 200);
      assert.equal(await h.keys.revoke(revoked.keyId), true);
      const expired = await h.keys.create({
        creatorId: h.alice.creatorId,
        scope: 'write',
        publish: false,
        expiresAt: h.clock.now() - 1,
      });
      const bad = { unknown: unknownKey(), malformed: 'not-a-key', revoked: revoked.key, expired: expired.key };
      for (const [why, key] of Object.entries(bad)) {
        const res = await rest(h.baseUrl, key, 'GET', '/me');
        assertError(res, 'invalid_api_key');
        assert.equal(
          res.headers.get('www-authenticate'),
          `Bearer error="invalid_token", resource_metadata="${h.origin}/.well-known/oauth-protected-resource/api/v1", scope="read", ${DPOP_CHALLENGE}`,
          why,
        );
        const viaApiKey = await rest(h.baseUrl, undefined, 'POST', '/guides', { name: 'x' }, { 'x-api-key': key });
        assertError(viaApiKey, 'invalid_api_key');
        const mcp = await rawMcp(h.mcpUrl, { authorization: `Bearer ${key}` });
        assertError(mcp, 'invalid_api_key');
        assert.equal(
          mcp.headers.get('www-authenticate'),
          `Bearer error="invalid_token", resource_metadata="${h.origin}/.well-known/oauth-protected-resource/mcp", scope="read write publish", ${DPOP_CHALLENGE}`,
          why,
        );
        await assertClientRefused(mcpClient(h.mcpUrl, key), 401, 'invalid_api_key');
      }
    });

    test('a key stops working the moment it expires, by the injected clock', async () => {
      const soon = await h.keys.create({
        creatorId: h.alice.creatorId,
        scope: 'read',
        publish: false,
        expiresAt: h.clock.now() + 60_000,
      });
      assert.equal((await rest(h.baseUrl, soon.key, 'GET', '/me')).status, 200);
      const client = await mcpClient(h.mcpUrl, soon.key);
      try {
        assert.equal((await callTool(client, 'whoami')).isError, false);
        h.clock.advance(60_000);
        assertError(await rest(h.baseUrl, soon.key, 'GET', '/me'), 'invalid_api_key');
        await assertClientRefused(callTool(client, 'whoami'), 401, 'invalid_api_key');
      } finally {
        await client.close();
      }
    });

    test('a key revoked after the MCP client connected is refused on its next request', async () => {
      const k = await h.keys.create({ creatorId: h.alice.creatorId, scope: 'write', publish: false });
      const client = await mcpClient(h.mcpUrl, k.key);
      try {
        assert.equal((await callTool(client, 'whoami')).isError, false);
        await h.keys.revoke(k.keyId);
        await assertClientRefused(callTool(client, 'whoami'), 401, 'invalid_api_key');
      } finally {
        await client.close();
      }
    });

    test('both headers: the same key works, two different keys are 400 invalid_argument', async () => {
      const same = await rest(h.baseUrl, h.alice.writeKey, 'GET', '/me', undefined, { 'x-api-key': h.alice.writeKey });
      assert.equal(same.status, 200);
      assert.equal(same.body.creatorId, h.alice.creatorId);
      const differentOwners = await rest(h.baseUrl, h.alice.writeKey, 'GET', '/me', undefined, {
        'x-api-key': h.bob.writeKey,
      });
      assertError(differentOwners, 'invalid_argument');
      const sameOwner = await rest(
        h.baseUrl,
        h.alice.writeKey,
        'POST',
        '/guides',
        { name: 'Never made' },
        {
          'x-api-key': h.alice.readKey,
        },
      );
      assertError(sameOwner, 'invalid_argument');

      const both = { authorization: `Bearer ${h.bob.readKey}`, 'x-api-key': h.bob.readKey };
      await assertMcpCaller(h.mcpUrl, both, h.bob.creatorId);
      const mixed = { authorization: `Bearer ${h.bob.readKey}`, 'x-api-key': h.alice.readKey };
      assertError(await rawMcp(h.mcpUrl, mixed), 'invalid_argument');
      await assertClientRefused(connectWith(h.mcpUrl, mixed), 400, 'invalid_argument');
    });

    test('X-Api-Key alone works on REST and MCP', async () => {
      const res = await rest(h.baseUrl, undefined, 'GET', '/me', undefined, { 'x-api-key': h.bob.writeKey });
      assert.equal(res.status, 200);
      assert.equal(res.body.creatorId, h.bob.creatorId);
      await assertMcpCaller(h.mcpUrl, { 'x-api-key': h.bob.writeKey }, h.bob.creatorId);
    });

    test('a read key reads but gets 403 api_scope_required on a write, on REST and MCP', async () => {
      const key = h.alice.readKey;
      const before = await rest(h.baseUrl, key, 'GET', '/guides');
      assert.equal(before.status, 200);
      assertError(await rest(h.baseUrl, key, 'POST', '/guides', { name: 'Read only' }), 'api_scope_required');
      assertError(
        await rest(h.baseUrl, key, 'PATCH', `/guides/${aliceGuideId}`, { name: 'Read only' }),
        'api_scope_required',
      );
      const guide = await rest(h.baseUrl, key, 'GET', `/guides/${aliceGuideId}`);
      assert.equal(guide.status, 200);
      assert.equal(guide.body.name, 'Alice in the Alps');
      assert.equal((await rest(h.baseUrl, key, 'GET', '/profile')).status, 200);

      const client = await mcpClient(h.mcpUrl, key);
      try {
        const refused = await callTool(client, 'create_guide', { name: 'Read only' });
        assert.equal(refused.isError, true);
        assert.equal(refused.body.error.code, 'api_scope_required');
        const read = await callTool(client, 'get_guide', { productId: aliceGuideId });
        assert.equal(read.isError, false);
        assert.equal(read.body.productId, aliceGuideId);
        assert.equal((await callTool(client, 'list_guides')).isError, false);
      } finally {
        await client.close();
      }
      const afterwards = await rest(h.baseUrl, key, 'GET', '/guides');
      assert.equal(afterwards.body.count, before.body.count, 'a refused write created nothing');
    });

    test('whoami tells the scopes: write without publish, write with publish, read', async () => {
      const expected = [
        [h.alice.writeKey, ['read', 'write']],
        [h.alice.publishKey, ['read', 'write', 'publish']],
        [h.alice.readKey, ['read']],
      ] as const;
      for (const [key, scopes] of expected) {
        const res = await rest(h.baseUrl, key, 'GET', '/me');
        assert.equal(res.status, 200);
        assert.deepEqual(res.body.key.scopes, scopes);
        const client = await mcpClient(h.mcpUrl, key);
        try {
          assert.deepEqual((await callTool(client, 'whoami')).body.key.scopes, scopes);
        } finally {
          await client.close();
        }
      }
      const write = await rest(h.baseUrl, h.alice.writeKey, 'POST', '/guides', { name: 'Written without publish' });
      assert.equal(write.status, 201);
    });

    test('a deactivated creator gets 403 forbidden on REST and MCP, and is back once reactivated', async () => {
      const carol = await h.newCreator('Carol');
      const client = await mcpClient(h.mcpUrl, carol.writeKey);
      try {
        await h.creators.update(carol.creatorId, { active: false });
        for (const key of [carol.readKey, carol.writeKey, carol.publishKey]) {
          assertError(await rest(h.baseUrl, key, 'GET', '/me'), 'forbidden');
          assertError(await rest(h.baseUrl, key, 'POST', '/guides', { name: 'x' }), 'forbidden');
          assertError(await rawMcp(h.mcpUrl, { authorization: `Bearer ${key}` }), 'forbidden');
        }
        await assertClientRefused(callTool(client, 'whoami'), 403, 'forbidden');
        await assertClientRefused(mcpClient(h.mcpUrl, carol.readKey), 403, 'forbidden');
        await h.creators.update(carol.creatorId, { active: true });
        assert.equal((await rest(h.baseUrl, carol.readKey, 'GET', '/me')).status, 200);
        assert.equal((await callTool(client, 'whoami')).isError, false);
      } finally {
        await client.close();
      }
    });
  });
}
