import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { type App, buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { testDialects } from './helpers/dialects.ts';
import { type Harness, startServer } from './helpers/harness.ts';
import { assertRefusalHeaders, type HttpAnswer, rest } from './helpers/http.ts';
import { callTool, mcpClient, type ToolAnswer } from './helpers/mcp.ts';
import { REDIS_URL, redisSkip } from './helpers/redis.ts';

/** A 429 with the envelope, retryAfterMs and RateLimit headers and Retry-After that agree with it. */
function assertLimited(res: HttpAnswer, maxWindowMs: number) {
  assert.equal(res.status, 429, JSON.stringify(res.body));
  assert.deepEqual(Object.keys(res.body), ['error']);
  const error = res.body.error as { code: string; message: string; retryAfterMs: number };
  assert.equal(error.code, 'rate_limited');
  assert.ok(Number.isInteger(error.retryAfterMs), 'retryAfterMs is an integer');
  assert.ok(error.retryAfterMs > 0 && error.retryAfterMs <= maxWindowMs, String(error.retryAfterMs));
  const retryAfter = res.headers.get('retry-after');
  assert.equal(retryAfter, String(Math.ceil(error.retryAfterMs / 1000)), 'Retry-After in whole seconds');
  assert.ok(Number(retryAfter) >= 1);
  assertRefusalHeaders(res as HttpAnswer<{ error: typeof error }>);
  assert.ok(res.headers.get('x-request-id'));
  return error;
}

function assertToolLimited(answer: ToolAnswer<{ error: { code: string; retryAfterMs: number } }>) {
  assert.equal(answer.isError, true, JSON.stringify(answer.body));
  assert.equal(answer.body.error.code, 'rate_limited');
  assert.ok(answer.body.error.retryAfterMs > 0);
}

const me = (baseUrl: string, key: string) => rest(baseUrl, key, 'GET', '/me');

for (const { dialect, skip } of await testDialects()) {
  describe(`rate limits per key (${dialect})`, { skip }, () => {
    let h: Harness;

    before(async () => {
      h = await startServer({
        dialect,
        env: { RATE_LIMIT_KEY_PER_MINUTE: '3', RATE_LIMIT_CREATOR_PER_HOUR: '1000' },
      });
    });
    after(() => h?.close());

    test('the 4th REST call in a minute is 429 rate_limited; successes carry the RateLimit headers', async () => {
      const c = await h.newCreator('Erin');
      for (let i = 0; i < 3; i++) {
        const ok = await me(h.baseUrl, c.readKey);
        assert.equal(ok.status, 200);
        const policy = ok.headers.get('ratelimit-policy') ?? '';
        assert.match(policy, /"per-key";q=3;w=60/);
        assert.match(policy, /"per-creator";q=1000;w=3600/);
        const [, remaining, reset] = /^"per-key";r=(\d+);t=(\d+)$/.exec(ok.headers.get('ratelimit') ?? '') ?? [];
        assert.equal(Number(remaining), 2 - i, `call ${i + 1} leaves ${2 - i}`);
        assert.ok(Number(reset) >= 1 && Number(reset) <= 60);
      }
      const error = assertLimited(await me(h.baseUrl, c.readKey), 60_000);
      assert.match(error.message, /3/);
      assertLimited(await rest(h.baseUrl, c.readKey, 'GET', '/guides'), 60_000);
      assert.equal((await me(h.baseUrl, h.bob.readKey)).status, 200, 'other creators keep their budget');
    });

    test('MCP tool calls spend the same per-key budget as REST calls', async () => {
      const c = await h.newCreator('Frank');
      assert.equal((await me(h.baseUrl, c.writeKey)).status, 200);
      assert.equal((await me(h.baseUrl, c.writeKey)).status, 200);
      const client = await mcpClient(h.mcpUrl, c.writeKey);
      try {
        await client.listTools();
        const third = await callTool(client, 'whoami');
        assert.equal(third.isError, false, 'connecting and listing tools spend nothing');
        assertLimited(await me(h.baseUrl, c.writeKey), 60_000);
        assertToolLimited(await callTool(client, 'whoami'));
        assertToolLimited(await callTool(client, 'create_guide', { name: 'Over the limit' }));
      } finally {
        await client.close();
      }
      const guides = await rest(h.baseUrl, c.readKey, 'GET', '/guides');
      assert.equal(guides.status, 200);
      assert.equal(guides.body.count, 0, 'a refused write created nothing');
    });

    test('REST calls then an MCP call: the MCP call is refused with retryAfterMs', async () => {
      const c = await h.newCreator('Gina');
      for (let i = 0; i < 3; i++) assert.equal((await me(h.baseUrl, c.readKey)).status, 200);
      const client = await mcpClient(h.mcpUrl, c.readKey);
      try {
        const refused = await callTool(client, 'get_profile');
        assertToolLimited(refused);
        assert.ok(refused.body.error.retryAfterMs <= 60_000);
        assert.deepEqual(Object.keys(refused.body), ['error']);
      } finally {
        await client.close();
      }
    });

    test('another key of the same creator has its own per-key budget', async () => {
      const c = await h.newCreator('Hugo');
      for (let i = 0; i < 3; i++) assert.equal((await me(h.baseUrl, c.readKey)).status, 200);
      assertLimited(await me(h.baseUrl, c.readKey), 60_000);
      for (let i = 0; i < 3; i++) {
        const created = await rest(h.baseUrl, c.writeKey, 'POST', '/guides', { name: `Guide ${i}` });
        assert.equal(created.status, 201);
      }
      assertLimited(await rest(h.baseUrl, c.writeKey, 'POST', '/guides', { name: 'One too many' }), 60_000);
      const list = await rest(h.baseUrl, c.publishKey, 'GET', '/guides');
      assert.equal(list.status, 200, 'a third key still has its budget');
      assert.equal(list.body.count, 3, 'the refused create made nothing');
    });
  });

  describe(`rate limits per creator (${dialect})`, { skip }, () => {
    let h: Harness;

    before(async () => {
      h = await startServer({ dialect, env: { RATE_LIMIT_KEY_PER_MINUTE: '3', RATE_LIMIT_CREATOR_PER_HOUR: '5' } });
    });
    after(() => h?.close());

    test('the per-hour creator budget is shared by all its keys, REST and MCP', async () => {
      const c = await h.newCreator('Iris');
      for (let i = 0; i < 3; i++) assert.equal((await me(h.baseUrl, c.readKey)).status, 200);
      assert.equal((await me(h.baseUrl, c.writeKey)).status, 200);
      const fifth = await me(h.baseUrl, c.writeKey);
      assert.equal(fifth.status, 200);
      assert.match(fifth.headers.get('ratelimit') ?? '', /^"per-creator";r=0;t=\d+$/, 'the tighter policy is shown');

      const error = assertLimited(await me(h.baseUrl, c.writeKey), 3_600_000);
      assert.ok(error.retryAfterMs > 60_000, 'the wait is the hourly window, not the minute');
      assert.match(error.message, /creator/);
      assertLimited(await me(h.baseUrl, c.publishKey), 3_600_000);
      const client = await mcpClient(h.mcpUrl, c.publishKey);
      try {
        assertToolLimited(await callTool(client, 'whoami'));
      } finally {
        await client.close();
      }
      assert.equal((await me(h.baseUrl, h.bob.readKey)).status, 200, 'another creator is not affected');
    });
  });

  describe(`rate limits shared over Redis by two instances (${dialect})`, { skip: skip || redisSkip }, () => {
    const env = { REDIS_URL, RATE_LIMIT_KEY_PER_MINUTE: '3', RATE_LIMIT_CREATOR_PER_HOUR: '1000' };
    let h: Harness;
    let second: App;
    let secondBase: string;
    let secondMcp: string;

    before(async () => {
      h = await startServer({ dialect, env });
      const config = loadConfig({ HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'silent', ...env });
      second = buildApp({ config, store: h.store, clock: h.clock, logger: pino({ level: 'silent' }) });
      const address = await second.fastify.listen({ host: '127.0.0.1', port: 0 });
      secondBase = `${address}/api/v1`;
      secondMcp = `${address}/mcp`;
    });
    after(async () => {
      await second?.close();
      await h?.close();
    });

    test('2 calls on one instance and 2 on the other: the 4th is 429', async () => {
      const c = await h.newCreator('Jon');
      assert.notEqual(secondBase, h.baseUrl);
      assert.equal((await me(h.baseUrl, c.readKey)).status, 200);
      assert.equal((await me(h.baseUrl, c.readKey)).status, 200);
      const third = await me(secondBase, c.readKey);
      assert.equal(third.status, 200);
      assert.match(third.headers.get('ratelimit') ?? '', /^"per-key";r=0;/, 'the second instance saw the first two');
      assertLimited(await me(secondBase, c.readKey), 60_000);
      assertLimited(await me(h.baseUrl, c.readKey), 60_000);
    });

    test('REST calls on one instance, then an MCP call on the other is refused', async () => {
      const c = await h.newCreator('Kim');
      for (let i = 0; i < 3; i++) assert.equal((await me(h.baseUrl, c.writeKey)).status, 200);
      const client = await mcpClient(secondMcp, c.writeKey);
      try {
        assertToolLimited(await callTool(client, 'whoami'));
      } finally {
        await client.close();
      }
      assert.equal((await me(secondBase, c.readKey)).status, 200, "the creator's other key has its own budget");
    });
  });
}
