import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { type App, buildApp } from '../src/app.ts';
import { apiFor } from './helpers/api.ts';
import { testDialects } from './helpers/dialects.ts';
import { newGuide, newSpots, times } from './helpers/fixtures.ts';
import { type Harness, startServer } from './helpers/harness.ts';
import { comparable, exchange, rawRequest as get } from './helpers/raw-exchange.ts';

/**
 * Plain REST reads are answered before Fastify routes them (src/transports/rest-early.ts). Whatever
 * a client sends, the bytes it gets back must be those Fastify's route gives: a second server on the
 * same store, with early answers off (REST_EARLY=false), is the reference. Each exchange is sent raw
 * over a socket to both, and the two answers compared byte for byte (status line, header names,
 * their order and values, body), but for the Date and the reset seconds of RateLimit; each test
 * also checks which way the request went.
 */

/** So that both servers write the same links into records and challenges. */
const FIXED_ADDRESSES = { PUBLIC_URL: 'https://guides.example', STUDIO_URL: 'https://studio.example' };

type Way = 'answered early' | 'handed over' | 'routed';

for (const { dialect, skip } of await testDialects()) {
  describe(`REST reads answered before Fastify match its route's answers (${dialect})`, { skip }, () => {
    let h: Harness;
    let reference: App;
    let referenceOrigin: string;
    let productId: string;
    let bigGuideId: string;
    let bobGuideId: string;
    const ways: Way[] = [];
    let key: string;

    before(async () => {
      h = await startServer({
        dialect,
        env: FIXED_ADDRESSES,
        observeEarly: (answered) => ways.push(answered ? 'answered early' : 'handed over'),
      });
      reference = buildApp({
        config: { ...h.config, restEarly: false },
        store: h.store,
        clock: h.clock,
        logger: pino({ level: 'silent' }),
        observeEarly: () => assert.fail('the reference answers no request early'),
      });
      referenceOrigin = await reference.listen('127.0.0.1', 0);
      // Made with another key than the one compared, whose budget both servers then spend alike.
      key = h.alice.writeKey;
      const alice = apiFor(h, 'rest', h.alice.publishKey);
      productId = await newGuide(alice, 'Lisbon by tram');
      // A list whose answer is over the size at which answers are compressed.
      bigGuideId = await newGuide(alice, 'Many spots');
      await newSpots(
        alice,
        bigGuideId,
        times(60, (i) => `spot-${i}`),
      );
      bobGuideId = await newGuide(apiFor(h, 'rest', h.bob.publishKey), 'Not Alice’s');
    });
    after(async () => {
      await reference?.close();
      await h?.close();
    });

    /** Sends the request to both servers; the (comparable) answer, and which way it went here. */
    async function compare(request: string): Promise<{ answer: string; way: Way }> {
      const before = ways.length;
      const answer = comparable(await exchange(h.origin, request));
      const way = ways.length > before ? (ways[ways.length - 1] as Way) : 'routed';
      const expected = comparable(await exchange(referenceOrigin, request));
      assert.equal(answer, expected);
      return { answer, way };
    }

    const auth = () => ({ authorization: `Bearer ${key}`, 'x-request-id': 'early-compare' });

    test('a cached get_guide is answered early, header for header as the route answers it', async () => {
      await compare(get(`/api/v1/guides/${productId}`, auth()));
      const { answer, way } = await compare(get(`/api/v1/guides/${productId}`, auth()));
      assert.equal(way, 'answered early');
      assert.match(answer, /^HTTP\/1\.1 200 OK\r\n/);
      assert.match(answer, /\r\nx-request-id: early-compare\r\nratelimit-policy: [^\r]+\r\nratelimit: [^\r]+\r\n/);
      assert.match(answer, /Lisbon by tram/);
    });

    test('without a request id of the caller’s, one is made (a UUID)', async () => {
      const { answer, way } = await compare(get(`/api/v1/guides/${productId}`, { 'x-api-key': key }));
      assert.equal(way, 'answered early');
      assert.match(answer, /\r\nx-request-id: \(uuid\)\r\n/);
    });

    test('other reads with path parameters and none: list_spots, whoami, list_guides', async () => {
      for (const path of [`/api/v1/guides/${productId}/spots`, '/api/v1/me', '/api/v1/guides']) {
        const { way } = await compare(get(path, auth()));
        assert.equal(way, 'answered early', path);
      }
    });

    test('refusals run early are sent by the route: 404s, a bad id, a missing and a wrong key', async () => {
      const refusals: Array<[string, Record<string, string>, RegExp]> = [
        [`/api/v1/guides/${bobGuideId}`, auth(), /^HTTP\/1\.1 404 /],
        ['/api/v1/guides/gd_missing', auth(), /^HTTP\/1\.1 (400|404) /],
        ['/api/v1/guides/x', auth(), /^HTTP\/1\.1 (400|404) /],
        [
          `/api/v1/guides/${productId}`,
          { 'x-request-id': 'early-compare' },
          /^HTTP\/1\.1 401 [\s\S]*www-authenticate: /i,
        ],
        [
          `/api/v1/guides/${productId}`,
          { authorization: 'Bearer sk_service_not_a_real_key_0000000000000000', 'x-request-id': 'early-compare' },
          /^HTTP\/1\.1 401 [\s\S]*invalid_token/i,
        ],
        [
          `/api/v1/guides/${productId}`,
          { authorization: 'Basic abc', 'x-request-id': 'early-compare' },
          /^HTTP\/1\.1 401 /,
        ],
      ];
      for (const [path, headers, status] of refusals) {
        const { answer, way } = await compare(get(path, headers));
        assert.equal(way, 'handed over', `${path} ${JSON.stringify(headers)}`);
        assert.match(answer, status);
        assert.match(answer, /"requestId":"early-compare"/);
      }
    });

    test('a large answer runs early and is sent compressed by the route', async () => {
      const path = `/api/v1/guides/${bigGuideId}/spots`;
      const encodings: Array<Record<string, string>> = [{}, { 'accept-encoding': 'gzip' }, { 'accept-encoding': 'br' }];
      for (const encoding of encodings) {
        const { answer, way } = await compare(get(path, { ...auth(), ...encoding }));
        assert.equal(way, 'handed over');
        assert.match(answer, /\r\nvary: Accept-Encoding\r\n/i);
      }
    });

    test('what is not in the plainest form goes to the router as it came', async () => {
      const routed = [
        get(`/api/v1/guides/${productId}?fields=all`, auth()),
        get(`/api/v1/guides/${productId}/spots?limit=1`, auth()),
        get(
          `/api/v1/guides/${productId.slice(0, 3)}%${Buffer.from(productId.slice(3, 4)).toString('hex')}${productId.slice(4)}`,
          auth(),
        ),
        get(`/api/v1/guides/${productId}`, auth(), 'HEAD'),
        get(`/api/v1/guides/${productId}/`, auth()),
        get(`/api/v1//guides/${productId}`, auth()),
        get(
          `/api/v1/guides/${productId}`,
          { ...auth(), 'content-length': '2', 'content-type': 'application/json' },
          'GET',
          '{}',
        ),
        get(`/api/v1/guides/${productId}`, { ...auth(), 'content-length': '0' }),
        get('/api/v1/openapi.json', auth()),
        get('/api/v1/nothing-here', auth()),
        get(`/api/v1/guides/${productId}/nothing-here`, auth()),
        get(`/api/v1/guides/${productId}`, auth(), 'OPTIONS'),
      ];
      for (const request of routed) {
        const { way } = await compare(request);
        assert.equal(way, 'routed', request.split('\r\n')[0]);
      }
    });

    test('without tracing configured, a caller’s trace context changes nothing', () => {
      return compare(
        get(`/api/v1/guides/${productId}`, {
          ...auth(),
          traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
        }),
      ).then(({ way }) => assert.equal(way, 'answered early'));
    });
  });
}

describe('rate limits and refused addresses answered alike early and routed', () => {
  let h: Harness;
  let reference: App;
  let referenceOrigin: string;
  let productId: string;
  const ways: boolean[] = [];

  before(async () => {
    h = await startServer({
      env: { ...FIXED_ADDRESSES, RATE_LIMIT_KEY_PER_MINUTE: '3', RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: '2' },
      observeEarly: (answered) => ways.push(answered),
    });
    reference = buildApp({
      config: { ...h.config, restEarly: false },
      store: h.store,
      clock: h.clock,
      logger: pino({ level: 'silent' }),
    });
    referenceOrigin = await reference.listen('127.0.0.1', 0);
    // One call of the key's budget of three spent on each server.
    productId = await newGuide(apiFor(h, 'rest', h.alice.writeKey));
    await newGuide(apiFor({ ...h, baseUrl: `${referenceOrigin}/api/v1` }, 'rest', h.alice.writeKey), 'Spent alike');
  });
  after(async () => {
    await reference?.close();
    await h?.close();
  });

  async function both(request: string): Promise<string> {
    const answer = comparable(await exchange(h.origin, request));
    assert.equal(answer, comparable(await exchange(referenceOrigin, request)));
    return answer;
  }

  test('the key’s budget: RateLimit headers as it runs out, then the same 429', async () => {
    const request = get(`/api/v1/guides/${productId}`, {
      authorization: `Bearer ${h.alice.writeKey}`,
      'x-request-id': 'early-limits',
    });
    const answers = [await both(request), await both(request), await both(request)];
    assert.match(answers[0] as string, /^HTTP\/1\.1 200 /);
    assert.match(answers[1] as string, /^HTTP\/1\.1 200 /);
    assert.match(answers[2] as string, /^HTTP\/1\.1 429 [\s\S]*retry-after: /i);
    assert.deepEqual(ways, [true, true, false]);
  });

  test('an address refused for failed keys gets the same 429', async () => {
    const request = get(`/api/v1/guides/${productId}`, {
      authorization: 'Bearer sk_service_not_a_real_key_0000000000000000',
      'x-request-id': 'early-limits',
    });
    const answers = [await both(request), await both(request), await both(request)];
    assert.match(answers[0] as string, /^HTTP\/1\.1 401 /);
    assert.match(answers[2] as string, /^HTTP\/1\.1 429 /);
  });
});
