import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { buildApp } from '../src/app.ts';
import { apiFor } from './helpers/api.ts';
import { newGuide } from './helpers/fixtures.ts';
import { type Harness, startServer } from './helpers/harness.ts';
import { comparable, exchange, rawRequest } from './helpers/raw-exchange.ts';

/**
 * Tool calls in the official clients' own form are answered before Fastify routes them
 * (src/transports/mcp-early.ts). Whatever a client sends to /mcp, the bytes it gets back must be
 * those Fastify's route gives: a second server on the same store, with early answers off
 * (REST_EARLY=false), is the reference. Each exchange is sent raw over a socket to both and the
 * answers compared byte for byte, but for the Date; each test also checks which way it went.
 */

const FIXED_ADDRESSES = { PUBLIC_URL: 'https://guides.example', STUDIO_URL: 'https://studio.example' };
const MODERN = '2026-07-28';
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'early-tests', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

type Way = 'early' | 'route';

function post(body: string, headers: Record<string, string>): string {
  return rawRequest(
    '/mcp',
    {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'x-request-id': 'early-compare',
      ...headers,
      'content-length': String(Buffer.byteLength(body)),
    },
    'POST',
    body,
  );
}

/** A tools/call as the 2.x client on 2026-07-28 sends it. */
function modernCall(key: string, name: string, args: unknown, extra: Record<string, unknown> = {}): string {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 7,
    method: 'tools/call',
    params: { name, arguments: args, _meta: ENVELOPE },
    ...extra,
  });
  const headers = { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': name };
  return post(body, { authorization: `Bearer ${key}`, ...headers });
}

/** A tools/call as a stateless 2025 client sends it (the 1.x SDK, the 2.x client on 2025). */
function legacyCall(key: string, name: string, args: unknown, headers: Record<string, string> = {}): string {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 'call-1',
    method: 'tools/call',
    params: { name, arguments: args },
  });
  return post(body, { authorization: `Bearer ${key}`, 'mcp-protocol-version': '2025-11-25', ...headers });
}

/** Two servers on one store, the reference answering nothing before Fastify; `compare` sends to both. */
async function pair(env: Record<string, string> = {}) {
  const ways: Way[] = [];
  const h = await startServer({
    env: { ...FIXED_ADDRESSES, ...env },
    observeMcp: (_path, early) => ways.push(early ? 'early' : 'route'),
  });
  const reference = buildApp({
    config: { ...h.config, restEarly: false },
    store: h.store,
    clock: h.clock,
    logger: pino({ level: 'silent' }),
    observeMcp: (_path, early) => assert.ok(!early, 'the reference answers nothing early'),
  });
  const referenceOrigin = await reference.listen('127.0.0.1', 0);
  /** The answer here (comparable) after checking it against the reference's, and which way it went. */
  const compare = async (request: string): Promise<{ answer: string; way: Way | undefined }> => {
    const before = ways.length;
    const answer = comparable(await exchange(h.origin, request));
    const way = ways.length > before ? ways[ways.length - 1] : undefined;
    assert.equal(answer, comparable(await exchange(referenceOrigin, request)));
    return { answer, way };
  };
  const close = async () => {
    await reference.close();
    await h.close();
  };
  return { h, compare, close, ways };
}

describe('MCP tool calls answered before Fastify match its route’s answers', () => {
  let h: Harness;
  let compare: Awaited<ReturnType<typeof pair>>['compare'];
  let close: () => Promise<void>;
  let ways: Way[];
  let key: string;
  let productId: string;

  before(async () => {
    ({ h, compare, close, ways } = await pair());
    key = h.alice.writeKey;
    productId = await newGuide(apiFor(h, 'rest', h.alice.publishKey), 'Lisbon by tram');
    // The MCP endpoint is loaded by the first request to /mcp, which Fastify routes.
    assert.equal((await compare(modernCall(key, 'get_guide', { productId }))).way, 'route');
  });
  after(() => close?.());

  test('a recognized call on either line is answered early, header for header as the route answers it', async () => {
    for (const request of [modernCall(key, 'get_guide', { productId }), legacyCall(key, 'get_guide', { productId })]) {
      const { answer, way } = await compare(request);
      assert.equal(way, 'early');
      assert.match(answer, /^HTTP\/1\.1 200 OK\r\nx-request-id: early-compare\r\ncontent-type: /i);
      assert.match(answer, /Lisbon by tram/);
    }
    const { answer } = await compare(legacyCall(key, 'get_guide', { productId }));
    assert.match(answer, /\r\ncontent-type: text\/event-stream\r\n[\s\S]*\r\n\r\nevent: message\ndata: \{"result"/);
  });

  test('a kept view is answered in the turn its body ends, with no promise between', async () => {
    // Listened to after the early path's own listeners, so this runs right after its end listener.
    const answeredByEnd: boolean[] = [];
    const listen = (req: IncomingMessage) => {
      const before = ways.length;
      req.on('end', () => answeredByEnd.push(ways.length > before));
    };
    h.app.fastify.server.on('request', listen);
    try {
      await compare(modernCall(key, 'get_guide', { productId }));
      await compare(legacyCall(key, 'get_guide', { productId }));
    } finally {
      h.app.fastify.server.off('request', listen);
    }
    assert.deepEqual(answeredByEnd, [true, true]);
  });

  test('without a request id of the caller’s, one is made', async () => {
    const request = modernCall(key, 'get_guide', { productId }).replace('x-request-id: early-compare\r\n', '');
    const { answer, way } = await compare(request);
    assert.equal(way, 'early');
    assert.match(answer, /\r\nx-request-id: \(uuid\)\r\n/i);
  });

  test('a tool’s refusal, inside its 200, is answered early alike', async () => {
    for (const request of [
      modernCall(key, 'get_guide', { productId: 'gd_missing' }),
      legacyCall(key, 'get_guide', { productId: 42 }),
      modernCall(h.alice.readKey, 'create_guide', { name: 'Not with a read key' }),
    ]) {
      const { answer, way } = await compare(request);
      assert.equal(way, 'early');
      assert.match(answer, /"isError":true/);
      assert.match(answer, /requestId\\?":\\?"early-compare/);
    }
  });

  test('a call in another form goes to the route with its body', async () => {
    const listed = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: ENVELOPE } });
    const handedOver = [
      post(listed, { authorization: `Bearer ${key}`, 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list' }),
      modernCall(key, 'get_guide', { productId }, { extra: true }),
      modernCall(key, 'no_such_tool', {}),
      legacyCall(key, 'get_guide', { productId }, { 'mcp-session-id': 'abc' }),
      legacyCall(key, 'get_guide', { productId }, { accept: 'application/json' }),
    ];
    for (const request of handedOver) {
      const { way } = await compare(request);
      assert.equal(way, 'route', request.split('\r\n\r\n')[1]);
    }
  });

  test('bodies the route refuses are refused by it, from the same bytes', async () => {
    const auth = { authorization: `Bearer ${key}` };
    for (const [request, status] of [
      [post('{"jsonrpc": "2.0",', auth), /^HTTP\/1\.1 400 /],
      [post('[]', auth), /^HTTP\/1\.1 [45]\d\d /],
      [post(`${'['.repeat(70)}${']'.repeat(70)}`, auth), /^HTTP\/1\.1 400 /],
      [post('{}', { ...auth, 'content-type': 'text/plain' }), /^HTTP\/1\.1 415 /],
    ] as const) {
      const { answer, way } = await compare(request);
      assert.notEqual(way, 'early');
      assert.match(answer, status);
    }
  });

  test('arguments nested past the bound the route’s parser sets are refused by it, those within it answered early', async () => {
    const nested = (levels: number): unknown => (levels === 0 ? {} : { a: nested(levels - 1) });
    const ways: Array<Way | undefined> = [];
    for (const levels of [60, 61, 62, 63]) {
      const { answer, way } = await compare(legacyCall(key, 'get_guide', nested(levels)));
      ways.push(way);
      if (way === undefined) assert.match(answer, /^HTTP\/1\.1 400 [\s\S]*nested deeper than 64 levels/);
    }
    assert.deepEqual(ways, ['early', 'early', undefined, undefined]);
  });

  test('a recognized call whose Host may not call /mcp is refused by the route', async () => {
    const request = modernCall(key, 'get_guide', { productId }).replace('host: localhost', 'host: elsewhere.example');
    const { answer, way } = await compare(request);
    assert.equal(way, undefined);
    assert.match(answer, /^HTTP\/1\.1 403 /);
  });

  test('a chunked body is the route’s to read', async () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 'call-1',
      method: 'tools/call',
      params: { name: 'get_guide', arguments: { productId } },
    });
    const request = rawRequest(
      '/mcp',
      {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'x-request-id': 'early-compare',
        'transfer-encoding': 'chunked',
      },
      'POST',
      `${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n`,
    );
    const { answer, way } = await compare(request);
    assert.equal(way, 'route');
    assert.match(answer, /^HTTP\/1\.1 200 /);
  });

  test('a client gone mid-body leaves the server answering', async () => {
    const request = modernCall(key, 'get_guide', { productId });
    const cut = request.slice(0, request.length - 20);
    const { hostname, port } = new URL(h.origin);
    await new Promise<void>((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => socket.end(cut));
      socket.on('close', () => resolve());
      socket.on('error', reject);
      socket.resume();
    });
    assert.equal((await compare(request)).way, 'early');
  });
});

describe('refused credentials sent by the route, counted once', () => {
  let compare: Awaited<ReturnType<typeof pair>>['compare'];
  let close: () => Promise<void>;
  let h: Harness;

  before(async () => {
    ({ h, compare, close } = await pair({ RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: '2' }));
    await compare(modernCall(h.alice.writeKey, 'list_guides', {}));
  });
  after(() => close?.());

  test('a wrong key gets the route’s 401 with its challenge, then the same 429', async () => {
    const request = modernCall('sk_service_not_a_real_key_0000000000000000', 'list_guides', {});
    const answers: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { answer, way } = await compare(request);
      assert.equal(way, undefined);
      answers.push(answer);
    }
    assert.match(answers[0] as string, /^HTTP\/1\.1 401 [\s\S]*www-authenticate: /i);
    assert.match(answers[1] as string, /^HTTP\/1\.1 401 /);
    assert.match(answers[2] as string, /^HTTP\/1\.1 429 /);
  });
});
