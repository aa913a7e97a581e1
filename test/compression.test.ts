import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fullSpot } from '../bench/spot-content.ts';
import { COMPRESS_MIN_BYTES, chooseEncoding, compressionCounts } from '../src/transports/compression.ts';
import { noRateLimits, useServer } from './helpers/api.ts';
import { rawCall as raw } from './helpers/http.ts';

describe('chooseEncoding', () => {
  test('picks br or gzip by weight, br on a tie, and nothing the client refuses', () => {
    const cases: Array<[string | undefined, string | undefined]> = [
      [undefined, undefined],
      ['', undefined],
      ['identity', undefined],
      ['deflate', undefined],
      ['gzip', 'gzip'],
      ['gzip, deflate, br', 'br'],
      ['br;q=0.5, gzip', 'gzip'],
      ['br;q=0, gzip;q=0', undefined],
      ['GZIP;Q=0.8', 'gzip'],
      ['*', 'br'],
      ['*;q=0', undefined],
      ['br;q=0, *', 'gzip'],
      ['x-gzip', 'gzip'],
      ['br;q=nonsense, gzip;q=0.1', 'gzip'],
    ];
    for (const [header, expected] of cases) assert.equal(chooseEncoding(header), expected, String(header));
  });
});

describe('compression of large answers', () => {
  const answered = { recognized: 0, direct: 0, sdk: 0 };
  const s = useServer({
    env: noRateLimits,
    observeMcp: (path) => {
      answered[path] += 1;
    },
  });

  test('the OpenAPI document: br or gzip when accepted, as it is otherwise; compressed once', async () => {
    const url = `${s.h.baseUrl}/openapi.json`;
    const plain = await raw(url, 'GET', {});
    assert.equal(plain.status, 200);
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(plain.headers.vary, 'Accept-Encoding');
    assert.ok(plain.wire.length > 100_000, `${plain.wire.length} bytes`);

    const before = { ...compressionCounts };
    for (const [accept, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['br', 'br'],
      ['gzip', 'gzip'],
    ] as const) {
      const packed = await raw(url, 'GET', { 'accept-encoding': accept });
      assert.equal(packed.status, 200);
      assert.equal(packed.headers['content-encoding'], encoding, accept);
      assert.equal(packed.headers['content-type'], 'application/json; charset=utf-8');
      assert.equal(Number(packed.headers['content-length']), packed.wire.length);
      assert.ok(packed.wire.length < plain.wire.length / 5, `${encoding}: ${packed.wire.length} bytes`);
      assert.equal(packed.text, plain.text);
    }
    assert.deepEqual(
      [compressionCounts.br - before.br, compressionCounts.gzip - before.gzip],
      [1, 1],
      'the same document is compressed once per encoding',
    );
  });

  test('a small answer goes as it is, even to a client that accepts compression', async () => {
    const me = await raw(`${s.h.baseUrl}/me`, 'GET', {
      authorization: `Bearer ${s.h.alice.readKey}`,
      'accept-encoding': 'gzip, br',
    });
    assert.equal(me.status, 200);
    assert.ok(me.wire.length < COMPRESS_MIN_BYTES);
    assert.equal(me.headers['content-encoding'], undefined);
    assert.equal(me.headers.vary, undefined);
    assert.equal(JSON.parse(me.text).creatorId, s.h.alice.creatorId);
  });

  test('a cached spot list is compressed once however often it is read', async () => {
    const auth = { authorization: `Bearer ${s.h.alice.writeKey}`, 'content-type': 'application/json' };
    const created = await raw(`${s.h.baseUrl}/guides`, 'POST', auth, JSON.stringify({ name: 'Large list' }));
    const productId = JSON.parse(created.text).productId as string;
    const spots = Array.from({ length: 25 }, (_, i) => fullSpot(i, () => 0.42, '2026-11-23'));
    const batch = await raw(`${s.h.baseUrl}/guides/${productId}/spots/batch`, 'POST', auth, JSON.stringify({ spots }));
    assert.equal(batch.status, 200, batch.text);

    const url = `${s.h.baseUrl}/guides/${productId}/spots`;
    const plain = await raw(url, 'GET', auth);
    assert.ok(plain.wire.length > COMPRESS_MIN_BYTES, `${plain.wire.length} bytes`);
    const before = compressionCounts.gzip;
    for (let i = 0; i < 3; i++) {
      const packed = await raw(url, 'GET', { ...auth, 'accept-encoding': 'gzip' });
      assert.equal(packed.headers['content-encoding'], 'gzip');
      assert.equal(packed.text, plain.text);
    }
    assert.equal(compressionCounts.gzip - before, 1);
  });

  test('MCP tools/list, 2026-07-28 and stateless 2025: compressed when accepted, the same JSON-RPC answer', async () => {
    // Every tool: a read key's list holds only the reads.
    const key = s.h.alice.publishKey;
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'compression-test', version: '1.0.0' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const common = {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    const clients = {
      modern: {
        headers: { ...common, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' },
        message: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list', params: { _meta: meta } }),
      },
      legacy: {
        headers: { ...common, 'mcp-protocol-version': '2025-11-25' },
        message: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list', params: {} }),
      },
    };
    const direct = answered.direct;
    for (const [name, { headers, message }] of Object.entries(clients)) {
      const plain = await raw(s.h.mcpUrl, 'POST', headers, message);
      assert.equal(plain.status, 200, `${name}: ${plain.text.slice(0, 300)}`);
      assert.equal(plain.headers['content-encoding'], undefined, name);
      assert.ok(plain.wire.length > 50_000, `${name}: ${plain.wire.length} bytes`);
      for (const encoding of ['br', 'gzip']) {
        const packed = await raw(s.h.mcpUrl, 'POST', { ...headers, 'accept-encoding': encoding }, message);
        assert.equal(packed.status, 200, name);
        assert.equal(packed.headers['content-encoding'], encoding, name);
        assert.equal(packed.headers.vary, 'Accept-Encoding', name);
        assert.equal(packed.headers['content-type'], plain.headers['content-type'], name);
        assert.equal(Number(packed.headers['content-length']), packed.wire.length, name);
        assert.ok(packed.wire.length < plain.wire.length / 5, `${name} ${encoding}: ${packed.wire.length} bytes`);
        assert.equal(packed.text, plain.text, name);
      }
    }
    assert.equal(answered.direct - direct, 6, 'all six took the direct path');
  });
});
