import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { type App, buildApp } from '../src/app.ts';
import type { McpPath } from '../src/transports/mcp-options.ts';
import { testDialects } from './helpers/dialects.ts';
import { type Harness, startServer } from './helpers/harness.ts';
import { callTool, mcpClient } from './helpers/mcp.ts';
import { receivingClient, receivingLines } from './helpers/received.ts';

/**
 * Tool calls are answered directly for speed: in the official clients' own form without the SDK
 * (src/transports/mcp-tool-call.ts), otherwise on the SDK's parts (src/transports/mcp-direct.ts).
 * Whatever a caller sends, the answer must be the one the SDK's full entry gives: the same status,
 * headers that matter and bytes. A second server on the same store, with direct answers off, is
 * the reference; each test also checks which path answered.
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
  /** The body as sent, when JSON.stringify of `body` could not write it. */
  text?: string;
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
    let unicodeId: string;
    const answered: Record<McpPath, number> = { recognized: 0, direct: 0, sdk: 0 };
    const referenceAnswered: Record<McpPath, number> = { recognized: 0, direct: 0, sdk: 0 };

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
      // Text that JSON escapes, or might: quotes, a line separator, a character outside the BMP.
      unicodeId = (await callTool(client, 'create_guide', { name: 'Café "Ç" \u2028 😀' })).body.productId;
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
        body: exchange.text ?? JSON.stringify(exchange.body),
      });
      const answer: Answer = {
        status: res.status,
        contentType: res.headers.get('content-type'),
        cacheControl: res.headers.get('cache-control'),
        body: await res.text(),
      };
      return answer;
    }

    /** Sends the exchange to both servers; returns the answer, and which path answered it. */
    async function compare(exchange: Exchange, accept?: string): Promise<{ answer: Answer; path: McpPath }> {
      const before = { ...answered };
      const answer = await send(h.mcpUrl, exchange, accept);
      const path = (Object.keys(answered) as McpPath[]).find((p) => answered[p] > before[p]);
      assert.ok(path, 'answered on one of the paths');
      const expected = await send(referenceUrl, exchange, accept);
      assert.equal(referenceAnswered.direct + referenceAnswered.recognized, 0, 'the reference answers on the SDK only');
      assert.deepEqual(answer, expected);
      return { answer, path };
    }

    const eras = [
      { era: '2026-07-28', make: modern },
      { era: '2025 stateless', make: legacy },
    ] as const;

    for (const { era, make } of eras) {
      test(`${era}: a successful tools/call is recognized and answered as the SDK answers it`, async () => {
        const { answer, path } = await compare(make('tools/call', { name: 'get_guide', arguments: { productId } }));
        assert.equal(path, 'recognized');
        assert.equal(answer.status, 200);
        assert.match(answer.body, /Lisbon by tram/);
      });

      test(`${era}: a request with a member JSON-RPC does not define is refused as the SDK refuses it`, async () => {
        const exchange = make('tools/call', { name: 'get_guide', arguments: { productId } });
        (exchange.body as Record<string, unknown>).extra = 'member';
        const { answer, path } = await compare(exchange);
        assert.equal(path, 'sdk');
        assert.equal(answer.status, 400);
      });

      test(`${era}: tools/list is answered directly, as the SDK answers it`, async () => {
        const { answer, path } = await compare(make('tools/list', {}));
        assert.equal(path, 'direct');
        assert.match(answer.body, /"name":"get_guide"/);
      });

      test(`${era}: an operation's refusal is the same tool error`, async () => {
        const { answer, path } = await compare(make('tools/call', { name: 'get_guide', arguments: { productId: 7 } }));
        assert.equal(path, 'recognized');
        assert.match(answer.body, /"isError":true/);
        assert.match(answer.body, /invalid_argument/);
      });

      test(`${era}: a missing guide is the same not_found`, async () => {
        const { answer, path } = await compare(
          make('tools/call', { name: 'get_guide', arguments: { productId: 'gd_AAAAAAAAAAAAAAAA' } }),
        );
        assert.equal(path, 'recognized');
        assert.match(answer.body, /not_found/);
      });

      test(`${era}: an unknown tool is the same protocol error`, async () => {
        const { answer, path } = await compare(make('tools/call', { name: 'no_such_tool', arguments: {} }));
        assert.equal(path, 'direct');
        assert.match(answer.body, /Unknown tool: no_such_tool/);
      });

      test(`${era}: a tools/call without a name is refused the same way`, async () => {
        const { answer, path } = await compare(make('tools/call', { arguments: {} }));
        assert.notEqual(path, 'recognized');
        assert.match(answer.body, /"error"/);
      });
    }

    test('2026-07-28: a call whose Mcp-Name disagrees with the tool goes to the SDK, which refuses it', async () => {
      const exchange = modern('tools/call', { name: 'get_guide', arguments: { productId } }, { 'mcp-name': 'whoami' });
      const { answer, path } = await compare(exchange);
      assert.equal(path, 'sdk');
      assert.notEqual(answer.status, 200);
    });

    test('2026-07-28: a call without the standard headers goes to the SDK, which refuses it', async () => {
      const exchange = modern('tools/call', { name: 'get_guide', arguments: { productId } });
      exchange.headers = {};
      const { answer, path } = await compare(exchange);
      assert.equal(path, 'sdk');
      assert.equal(answer.status, 400);
    });

    test('2025: a client that does not accept an event stream gets the SDK’s 406', async () => {
      const { answer, path } = await compare(
        legacy('tools/call', { name: 'get_guide', arguments: { productId } }),
        'application/json',
      );
      assert.equal(path, 'sdk');
      assert.equal(answer.status, 406);
    });

    test('2025: an unsupported protocol version header gets the SDK’s refusal', async () => {
      const exchange = legacy(
        'tools/call',
        { name: 'get_guide', arguments: { productId } },
        { 'mcp-protocol-version': '1999-01-01' },
      );
      const { answer, path } = await compare(exchange);
      assert.equal(path, 'sdk');
      assert.equal(answer.status, 400);
    });

    test('2025: initialize, ping and batches go to the SDK', async () => {
      const init = legacy('initialize', {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'direct-tests', version: '1' },
      });
      assert.equal((await compare(init)).path, 'sdk');
      assert.equal((await compare(legacy('ping', undefined))).path, 'sdk');
      const batch = { body: [legacy('tools/list', {}).body] };
      assert.equal((await compare(batch)).path, 'sdk');
    });

    // What the recognized form leaves out goes to the SDK's parts, and is answered as the SDK answers it.
    const outside: Array<{ what: string; exchange: () => Exchange }> = [
      { what: 'an id past the safe integers', exchange: () => withId(modern('tools/call', call()), 2 ** 53) },
      { what: 'a fractional id', exchange: () => withId(legacy('tools/call', call()), 1.5) },
      { what: 'a null id', exchange: () => withId(legacy('tools/call', call()), null) },
      {
        what: 'declared client capabilities',
        exchange: () => withEnvelope({ 'io.modelcontextprotocol/clientCapabilities': { roots: {} } }),
      },
      {
        what: 'client info with a title',
        exchange: () => withEnvelope({ 'io.modelcontextprotocol/clientInfo': { name: 'a', version: '1', title: 'A' } }),
      },
      {
        what: 'a client info without a version',
        exchange: () => withEnvelope({ 'io.modelcontextprotocol/clientInfo': { name: 'a' } }),
      },
      { what: 'a progress token', exchange: () => withEnvelope({ progressToken: 3 }) },
      {
        what: 'a trace context',
        exchange: () => withEnvelope({ traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' }),
      },
      {
        what: 'another envelope version',
        exchange: () => withEnvelope({ 'io.modelcontextprotocol/protocolVersion': '2025-11-25' }),
      },
      {
        what: '_meta on the 2025 line',
        exchange: () => legacy('tools/call', { ...call(), _meta: { progressToken: 1 } }),
      },
      { what: 'a task on the 2025 line', exchange: () => legacy('tools/call', { ...call(), task: { ttl: 1000 } }) },
      {
        what: 'arguments that are a list',
        exchange: () => legacy('tools/call', { name: 'get_guide', arguments: [productId] }),
      },
      { what: 'a __proto__ argument', exchange: () => ({ ...legacy('tools/call', call()), text: protoCall() }) },
      { what: 'a REST-only operation', exchange: () => legacy('tools/call', { name: 'upload_media', arguments: {} }) },
    ];
    for (const { what, exchange } of outside) {
      test(`a call with ${what} is left to the SDK's parts and answered alike`, async () => {
        const { path } = await compare(exchange());
        assert.notEqual(path, 'recognized');
      });
    }

    // And what it takes in is what the official clients send, however the ids and arguments vary.
    const inside: Array<{ what: string; exchange: () => Exchange }> = [
      { what: 'a string id', exchange: () => withId(modern('tools/call', call()), 'call-9') },
      { what: 'id 0', exchange: () => withId(legacy('tools/call', call()), 0) },
      { what: 'a negative id', exchange: () => withId(modern('tools/call', call()), -4) },
      { what: 'no arguments', exchange: () => modern('tools/call', { name: 'whoami' }) },
      { what: 'no client info', exchange: () => withEnvelope({ 'io.modelcontextprotocol/clientInfo': undefined }) },
      { what: 'no version header (2025)', exchange: () => ({ ...legacy('tools/call', call()), headers: {} }) },
      {
        what: 'members in another order',
        exchange: () => legacy('tools/call', { arguments: { productId }, name: 'get_guide' }),
      },
      {
        what: 'a large answer (compressed when accepted)',
        exchange: () => modern('tools/call', { name: 'get_authoring_guide' }),
      },
      {
        what: 'an answer JSON escapes',
        exchange: () => modern('tools/call', { name: 'get_guide', arguments: { productId: unicodeId } }),
      },
    ];
    for (const { what, exchange } of inside) {
      test(`a call with ${what} is recognized and answered as the SDK answers it`, async () => {
        const { path } = await compare(exchange());
        assert.equal(path, 'recognized');
      });
    }

    test('2026-07-28: a recognized call accepting only JSON is answered as the SDK answers it', async () => {
      const { path } = await compare(modern('tools/call', call()), 'application/json');
      assert.equal(path, 'recognized');
    });

    function call() {
      return { name: 'get_guide', arguments: { productId } };
    }
    function withId(exchange: Exchange, id: unknown): Exchange {
      return { ...exchange, body: { ...(exchange.body as object), id } };
    }
    function withEnvelope(change: Record<string, unknown>): Exchange {
      const meta = Object.fromEntries(Object.entries({ ...ENVELOPE, ...change }).filter(([, v]) => v !== undefined));
      const exchange = modern('tools/call', call());
      const body = exchange.body as { params: Record<string, unknown> };
      return { ...exchange, body: { ...body, params: { ...body.params, _meta: meta } } };
    }
    /** A call whose arguments hold an own `__proto__` member, as JSON can carry it. */
    function protoCall(): string {
      return `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_guide","arguments":{"__proto__":{"x":1},"productId":"${productId}"}}}`;
    }

    for (const line of receivingLines) {
      test(`the official client (${line}) is answered on the recognized path, and writes land once`, async () => {
        const before = answered.recognized;
        const name = `Porto in a day (${line})`;
        const client = await receivingClient(line, h.mcpUrl, h.alice.writeKey, []);
        const made = await callTool(client, 'create_guide', { name });
        assert.equal(made.isError, false);
        const read = await callTool(client, 'get_guide', { productId: made.body.productId });
        assert.equal(read.body.name, name);
        const refused = await callTool(client, 'get_guide', { productId: 'gd_AAAAAAAAAAAAAAAA' });
        assert.equal(refused.isError, true);
        await client.close();
        assert.equal(answered.recognized, before + 3);
        const listed = await fetch(`${h.baseUrl}/guides`, { headers: { authorization: `Bearer ${h.alice.readKey}` } });
        const names = ((await listed.json()) as { guides: Array<{ name: string }> }).guides.map((g) => g.name);
        assert.equal(names.filter((n) => n === name).length, 1);
      });
    }
  });
}
