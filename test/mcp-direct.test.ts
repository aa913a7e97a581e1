import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { type App, buildApp } from '../src/app.ts';
import { testDialects } from './helpers/dialects.ts';
import { type Harness, startServer } from './helpers/harness.ts';
import { callTool, mcpClient } from './helpers/mcp.ts';

/**
 * Tool calls are answered directly (src/transports/mcp-direct.ts) for speed. Whatever a caller
 * sends, the answer must be the one the SDK's full entry gives: the same status, headers that
 * matter and bytes. A second server on the same store, with direct answers off, is the reference.
 */
const MODERN = '2026-07-28';
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'direct-tests', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

interface Exchange {
  headers?: Record<string, string>;
  body: unknown;
}

interface Answer {
  status: number;
  contentType: string | null;
  cacheControl: string | null;
  body: string;
}

function modern(method: string, params: Record<string, unknown>, headers: Record<string, string> = {}): Exchange {
  const name: Record<string, string> = typeof params.name === 'string' ? { 'mcp-name': params.name } : {};
  return {
    headers: { 'mcp-protocol-version': MODERN, 'mcp-method': method, ...name, ...headers },
    body: { jsonrpc: '2.0', id: 7, method, params: { ...params, _meta: ENVELOPE } },
  };
}

function legacy(method: string, params: Record<string, unknown> | undefined, headers: Record<string, string> = {}) {
  return {
    headers: { 'mcp-protocol-version': '2025-11-25', ...headers },
    body: { jsonrpc: '2.0', id: 'call-1', method, ...(params && { params }) },
  };
}

for (const { dialect, skip } of await testDialects()) {
  describe(`MCP direct answers match the SDK's (${dialect})`, { skip }, () => {
    let h: Harness;
    let reference: App;
    let referenceUrl: string;
    let productId: string;
    const answered = { direct: 0, sdk: 0 };
    const referenceAnswered = { direct: 0, sdk: 0 };

    before(async () => {
      // Fixed public addresses, so that both servers write the same links into records.
      h = await startServer({
        dialect,
        env: { PUBLIC_URL: 'https://guides.example', STUDIO_URL: 'https://studio.example' },
        observeMcp: (path) => {
          answered[path] += 1;
        },
      });
      reference = buildApp({
        config: { ...h.config, mcpDirect: false },
        store: h.store,
        clock: h.clock,
        logger: pino({ level: 'silent' }),
        observeMcp: (path) => {
          referenceAnswered[path] += 1;
        },
      });
      referenceUrl = `${await reference.listen('127.0.0.1', 0)}/mcp`;
      const client = await mcpClient(h.mcpUrl, h.alice.publishKey);
      productId = (await callTool(client, 'create_guide', { name: 'Lisbon by tram' })).body.productId;
      await client.close();
    });
    after(async () => {
      await reference?.close();
      await h?.close();
    });

    async function send(url: string, exchange: Exchange, accept = 'application/json, text/event-stream') {
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${h.alice.publishKey}`,
          'content-type': 'application/json',
          accept,
          // Error bodies quote the request id: both servers get the same one.
          'x-request-id': 'direct-compare',
          ...exchange.headers,
        },
        body: JSON.stringify(exchange.body),
      });
      const answer: Answer = {
        status: res.status,
        contentType: res.headers.get('content-type'),
        cacheControl: res.headers.get('cache-control'),
        body: await res.text(),
      };
      return answer;
    }

    /** Sends the exchange to both servers; returns the answer, and whether it was answered directly. */
    async function compare(exchange: Exchange, accept?: string): Promise<{ answer: Answer; direct: boolean }> {
      const before = answered.direct;
      const answer = await send(h.mcpUrl, exchange, accept);
      const direct = answered.direct > before;
      const expected = await send(referenceUrl, exchange, accept);
      assert.equal(referenceAnswered.direct, 0, 'the reference never answers directly');
      assert.deepEqual(answer, expected);
      return { answer, direct };
    }

    const eras = [
      { era: '2026-07-28', make: modern },
      { era: '2025 stateless', make: legacy },
    ] as const;

    for (const { era, make } of eras) {
      test(`${era}: a successful tools/call is answered directly, as the SDK answers it`, async () => {
        const { answer, direct } = await compare(make('tools/call', { name: 'get_guide', arguments: { productId } }));
        assert.equal(direct, true);
        assert.equal(answer.status, 200);
        assert.match(answer.body, /Lisbon by tram/);
      });

      test(`${era}: a request with a member JSON-RPC does not define is refused as the SDK refuses it`, async () => {
        const exchange = make('tools/call', { name: 'get_guide', arguments: { productId } });
        (exchange.body as Record<string, unknown>).extra = 'member';
        const { answer, direct } = await compare(exchange);
        assert.equal(direct, false);
        assert.equal(answer.status, 400);
      });

      test(`${era}: tools/list is answered directly, as the SDK answers it`, async () => {
        const { answer, direct } = await compare(make('tools/list', {}));
        assert.equal(direct, true);
        assert.match(answer.body, /"name":"get_guide"/);
      });

      test(`${era}: an operation's refusal is the same tool error`, async () => {
        const { answer, direct } = await compare(
          make('tools/call', { name: 'get_guide', arguments: { productId: 7 } }),
        );
        assert.equal(direct, true);
        assert.match(answer.body, /"isError":true/);
        assert.match(answer.body, /invalid_argument/);
      });

      test(`${era}: a missing guide is the same not_found`, async () => {
        const { answer } = await compare(
          make('tools/call', { name: 'get_guide', arguments: { productId: 'gd_AAAAAAAAAAAAAAAA' } }),
        );
        assert.match(answer.body, /not_found/);
      });

      test(`${era}: an unknown tool is the same protocol error`, async () => {
        const { answer } = await compare(make('tools/call', { name: 'no_such_tool', arguments: {} }));
        assert.match(answer.body, /Unknown tool: no_such_tool/);
      });

      test(`${era}: a tools/call without a name is refused the same way`, async () => {
        const { answer } = await compare(make('tools/call', { arguments: {} }));
        assert.match(answer.body, /"error"/);
      });
    }

    test('2026-07-28: a call whose Mcp-Name disagrees with the tool goes to the SDK, which refuses it', async () => {
      const exchange = modern('tools/call', { name: 'get_guide', arguments: { productId } }, { 'mcp-name': 'whoami' });
      const { answer, direct } = await compare(exchange);
      assert.equal(direct, false);
      assert.notEqual(answer.status, 200);
    });

    test('2026-07-28: a call without the standard headers goes to the SDK, which refuses it', async () => {
      const exchange = modern('tools/call', { name: 'get_guide', arguments: { productId } });
      exchange.headers = {};
      const { answer, direct } = await compare(exchange);
      assert.equal(direct, false);
      assert.equal(answer.status, 400);
    });

    test('2025: a client that does not accept an event stream gets the SDK’s 406', async () => {
      const { answer, direct } = await compare(
        legacy('tools/call', { name: 'get_guide', arguments: { productId } }),
        'application/json',
      );
      assert.equal(direct, false);
      assert.equal(answer.status, 406);
    });

    test('2025: an unsupported protocol version header gets the SDK’s refusal', async () => {
      const exchange = legacy(
        'tools/call',
        { name: 'get_guide', arguments: { productId } },
        { 'mcp-protocol-version': '1999-01-01' },
      );
      const { answer, direct } = await compare(exchange);
      assert.equal(direct, false);
      assert.equal(answer.status, 400);
    });

    test('2025: initialize, ping and batches go to the SDK', async () => {
      const init = legacy('initialize', {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'direct-tests', version: '1' },
      });
      assert.equal((await compare(init)).direct, false);
      assert.equal((await compare(legacy('ping', undefined))).direct, false);
      const batch = { body: [legacy('tools/list', {}).body] };
      assert.equal((await compare(batch)).direct, false);
    });

    test('the official client works through the direct answers, and writes land once', async () => {
      const before = answered.direct;
      const client = await mcpClient(h.mcpUrl, h.alice.writeKey);
      const made = await callTool(client, 'create_guide', { name: 'Porto in a day' });
      assert.equal(made.isError, false);
      const read = await callTool(client, 'get_guide', { productId: made.body.productId });
      assert.equal(read.body.name, 'Porto in a day');
      await client.close();
      assert.ok(answered.direct >= before + 2);
      const listed = await fetch(`${h.baseUrl}/guides`, { headers: { authorization: `Bearer ${h.alice.readKey}` } });
      const names = ((await listed.json()) as { guides: Array<{ name: string }> }).guides.map((g) => g.name);
      assert.equal(names.filter((n) => n === 'Porto in a day').length, 1);
    });
  });
}
