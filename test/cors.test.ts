import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadConfig } from '../src/config.ts';
import { noRateLimits, useServer } from './helpers/api.ts';

const STUDIO = 'https://studio.example.com';
const LOCAL_APP = 'http://localhost:5173';

function preflight(url: string, origin: string, method = 'POST'): Promise<Response> {
  return fetch(url, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': method,
      'access-control-request-headers': 'authorization,content-type',
    },
  });
}

describe('CORS for the REST API (CORS_ORIGINS set)', () => {
  const s = useServer({ env: { ...noRateLimits, CORS_ORIGINS: `${STUDIO}, ${LOCAL_APP}` } });

  test('a preflight from an allowed origin is answered 204 with the methods and headers it asked for', async () => {
    for (const origin of [STUDIO, LOCAL_APP]) {
      const res = await preflight(`${s.h.baseUrl}/guides`, origin);
      assert.equal(res.status, 204);
      assert.equal(res.headers.get('access-control-allow-origin'), origin);
      assert.equal(res.headers.get('access-control-allow-methods'), 'GET, POST, PUT, PATCH, DELETE');
      assert.equal(res.headers.get('access-control-allow-headers'), 'authorization,content-type');
      assert.equal(res.headers.get('access-control-max-age'), '600');
      assert.equal(res.headers.get('access-control-allow-credentials'), null);
      assert.match(res.headers.get('vary') ?? '', /Origin/);
    }
    const withParams = await preflight(`${s.h.baseUrl}/guides/gd_x/spots?limit=5`, STUDIO, 'DELETE');
    assert.equal(withParams.status, 204);
    assert.equal(withParams.headers.get('access-control-allow-origin'), STUDIO);
  });

  test('answers to an allowed origin expose the request id, rate limit, Retry-After and Location headers', async () => {
    const res = await fetch(`${s.h.baseUrl}/guides`, {
      method: 'POST',
      headers: { origin: STUDIO, authorization: `Bearer ${s.h.alice.writeKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'From the browser' }),
    });
    assert.equal(res.status, 201);
    assert.equal(res.headers.get('access-control-allow-origin'), STUDIO);
    assert.equal(
      res.headers.get('access-control-expose-headers'),
      'X-Request-Id, RateLimit, RateLimit-Policy, Retry-After, Location',
    );
    assert.ok(res.headers.get('x-request-id'));
    assert.ok(res.headers.get('ratelimit'));

    const refused = await fetch(`${s.h.baseUrl}/me`, { headers: { origin: STUDIO } });
    assert.equal(refused.status, 401);
    assert.equal(refused.headers.get('access-control-allow-origin'), STUDIO, 'a browser may read the error too');
    assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'unauthenticated');
  });

  test('another origin gets no Access-Control-Allow-Origin, so its browser withholds the answer', async () => {
    const res = await fetch(`${s.h.baseUrl}/me`, {
      headers: { origin: 'https://evil.example.net', authorization: `Bearer ${s.h.alice.readKey}` },
    });
    assert.equal(res.headers.get('access-control-allow-origin'), null);
    const pre = await preflight(`${s.h.baseUrl}/guides`, 'https://evil.example.net');
    assert.equal(pre.headers.get('access-control-allow-origin'), null);
  });

  test('/mcp and the paths outside /api/v1 get no CORS answer', async () => {
    const pre = await preflight(s.h.mcpUrl, STUDIO);
    assert.equal(pre.headers.get('access-control-allow-origin'), null);
    assert.equal(pre.status, 405, 'OPTIONS is not a method /mcp is served with');
    const health = await fetch(`${s.h.origin}/healthz`, { headers: { origin: STUDIO } });
    assert.equal(health.headers.get('access-control-allow-origin'), null);
    const lookalike = await preflight(`${s.h.origin}/api/v1x/guides`, STUDIO);
    assert.equal(lookalike.headers.get('access-control-allow-origin'), null);
  });
});

describe('CORS off (the default)', () => {
  const s = useServer({ env: noRateLimits });

  test('no CORS header on answers; a preflight is a method the path is not served with', async () => {
    const res = await fetch(`${s.h.baseUrl}/me`, {
      headers: { origin: STUDIO, authorization: `Bearer ${s.h.alice.readKey}` },
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('access-control-allow-origin'), null);
    assert.equal(res.headers.get('access-control-expose-headers'), null);
    const pre = await preflight(`${s.h.baseUrl}/guides`, STUDIO);
    assert.equal(pre.status, 405);
    assert.equal(pre.headers.get('allow'), 'GET, HEAD, POST');
    assert.equal(pre.headers.get('access-control-allow-origin'), null);
    assert.equal(((await pre.json()) as { error: { code: string } }).error.code, 'invalid_argument');
  });
});

describe('CORS_ORIGINS is validated at start', () => {
  test('origins and * are taken; a path, a trailing slash or another scheme is refused by name', () => {
    assert.deepEqual(loadConfig({}).corsOrigins, []);
    assert.deepEqual(loadConfig({ CORS_ORIGINS: ' ' }).corsOrigins, []);
    assert.deepEqual(loadConfig({ CORS_ORIGINS: `${STUDIO},${LOCAL_APP}` }).corsOrigins, [STUDIO, LOCAL_APP]);
    assert.deepEqual(loadConfig({ CORS_ORIGINS: '*' }).corsOrigins, ['*']);
    for (const bad of [`${STUDIO}/`, `${STUDIO}/app`, 'ftp://files.example.com', 'studio.example.com']) {
      assert.throws(
        () => loadConfig({ CORS_ORIGINS: `${LOCAL_APP},${bad}` }),
        new RegExp(`CORS_ORIGINS: "${bad.replace(/[./]/g, '\\$&')}" is not an origin`),
      );
    }
  });
});
