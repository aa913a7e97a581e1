import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { assertError, assertOk } from '../helpers/answers.ts';
import { type Api, apiFor } from '../helpers/api.ts';
import { testDialects } from '../helpers/dialects.ts';
import { newGuide } from '../helpers/fixtures.ts';
import { type Harness, startServer } from '../helpers/harness.ts';
import { holdEveryConnection } from '../helpers/hold-store.ts';
import { flat } from '../helpers/images.ts';
import { answer, checkerFor, type LocalServer, serve } from '../helpers/local-servers.ts';
import { callTool, mcpClient } from '../helpers/mcp.ts';
import { uploadRaw } from '../helpers/uploads.ts';
import { type Sample, scrape, total } from './exposition.ts';

const DURATION = 'http_request_duration_seconds_count';

describe('metrics are off by default', () => {
  let h: Harness;
  before(async () => {
    h = await startServer();
  });
  after(() => h?.close());

  it('no metrics address, and the public port serves no /metrics', async () => {
    assert.equal(h.app.metricsUrl, undefined);
    const res = await fetch(`${h.origin}/metrics`);
    assert.equal(res.status, 404);
    assert.equal(((await res.json()) as any).error.code, 'not_found');
  });

  it('METRICS_PORT may not be the public port: metrics stay off it', () => {
    assert.throws(() => loadConfig({ PORT: '8080', METRICS_PORT: '8080' }), /METRICS_PORT: must differ from PORT/);
    assert.throws(() => loadConfig({ METRICS_PORT: 'nine' }), /METRICS_PORT/);
    assert.deepEqual(loadConfig({ METRICS_PORT: '9464' }).metrics, { host: '127.0.0.1', port: 9464 });
  });
});

for (const { dialect, skip } of await testDialects()) {
  describe(`Prometheus metrics on their own address (${dialect})`, { skip }, () => {
    let h: Harness;
    let site: LocalServer;
    let rest: Api;
    let mcp: Api;
    let productId: string;
    let samples: Sample[];

    before(async () => {
      site = await serve(answer(200));
      h = await startServer({
        dialect,
        env: { METRICS_PORT: '0', RATE_LIMIT_LINK_CHECKS_PER_HOUR: '1' },
        services: { linkChecker: checkerFor([site]) },
      });
      rest = apiFor(h, 'rest', h.alice.writeKey);
      mcp = apiFor(h, 'mcp', h.alice.writeKey);
      productId = await newGuide(rest, 'Metered guide');
      // Reads over both transports (the second REST read comes from the view cache), and refusals.
      for (let i = 0; i < 2; i++) assertOk(await rest.call('get_guide', { productId }));
      assertOk(await mcp.call('get_guide', { productId }));
      assertError(await mcp.call('get_guide', { productId: 'gd_nosuchguide0000' }), 'not_found');
      assertError(await rest.call('get_guide', { productId: 'gd_nosuchguide0001' }), 'not_found');
      // Photo work, link-check work and a link-check refusal.
      const photo = await flat(64, 48).jpeg().toBuffer();
      assert.equal((await uploadRaw(h, h.alice.writeKey, photo, 'image/jpeg', { productId })).status, 201);
      assertOk(
        await rest.call('create_spot', {
          productId,
          name: 'Lookout',
          links: [{ kind: 'official', url: `${site.origin}/a` }],
        }),
        201,
      );
      assertOk(await rest.call('check_links', { productId }));
      assertError(await rest.call('check_links', { productId }), 'rate_limited');
      // What the labels must never carry: a made-up tool, a made-up path.
      const client = await mcpClient(h.mcpUrl, h.alice.writeKey);
      await assert.rejects(callTool(client, 'made_up_tool_7f3a', {}));
      await client.close();
      assert.equal((await fetch(`${h.baseUrl}/made-up-path-9c2e/${productId}`)).status, 404);
      assert.equal((await fetch(`${h.origin}/g/nobody-4d1b/nothing-4d1b`)).status, 404);
      const scraped = await scrape(h.app.metricsUrl as string);
      assert.equal(scraped.status, 200);
      samples = scraped.samples;
    });
    after(async () => {
      await rest?.close();
      await mcp?.close();
      await h?.close();
    });

    it('listen on 127.0.0.1, on a port of their own, serving only /metrics in the text format', async () => {
      const url = new URL(h.app.metricsUrl as string);
      assert.equal(url.hostname, '127.0.0.1');
      assert.notEqual(url.port, new URL(h.origin).port);
      const { contentType } = await scrape(url.href);
      assert.match(contentType, /^text\/plain; version=0\.0\.4/);
      // Nothing of the API is reachable there, and nothing of the metrics on the public port.
      assert.equal(
        (await fetch(`${url.origin}/api/v1/me`, { headers: { authorization: `Bearer ${h.alice.writeKey}` } })).status,
        404,
      );
      assert.equal((await fetch(`${url.origin}/metrics`, { method: 'POST' })).status, 404);
      assert.equal((await fetch(`${h.origin}/metrics`)).status, 404);
    });

    it('count requests by operation, transport and status, with latency histograms', () => {
      assert.equal(total(samples, DURATION, { transport: 'rest', operation: 'get_guide', status_code: '200' }), 2);
      assert.equal(total(samples, DURATION, { transport: 'rest', operation: 'get_guide', status_code: '404' }), 1);
      assert.equal(total(samples, DURATION, { transport: 'rest', operation: 'create_guide', status_code: '201' }), 1);
      assert.equal(total(samples, DURATION, { transport: 'rest', operation: 'upload_media', status_code: '201' }), 1);
      // An MCP tool error travels inside an HTTP 200: two get_guide calls, both answered 200.
      assert.equal(total(samples, DURATION, { transport: 'mcp', operation: 'get_guide', status_code: '200' }), 2);
      assert.equal(
        total(samples, DURATION, { transport: 'page', route: '/g/:creatorSlug/:guideSlug', status_code: '404' }),
        1,
      );
      const buckets = samples.filter(
        (s) =>
          s.name === 'http_request_duration_seconds_bucket' &&
          s.labels.operation === 'get_guide' &&
          s.labels.transport === 'rest' &&
          s.labels.status_code === '200',
      );
      assert.ok(buckets.length >= 10, 'a histogram, bucket by bucket');
      assert.equal(buckets.find((b) => b.labels.le === '+Inf')?.value, 2);
    });

    it('count errors by code, tool errors included, and rate-limit refusals by policy', () => {
      assert.equal(
        total(samples, 'creator_api_errors_total', { transport: 'mcp', operation: 'get_guide', code: 'not_found' }),
        1,
      );
      assert.equal(
        total(samples, 'creator_api_errors_total', { transport: 'rest', operation: 'get_guide', code: 'not_found' }),
        1,
      );
      assert.equal(
        total(samples, 'creator_api_errors_total', {
          transport: 'rest',
          operation: 'check_links',
          code: 'rate_limited',
        }),
        1,
      );
      assert.equal(total(samples, 'creator_api_rate_limited_total', { transport: 'rest', policy: 'link-checks' }), 1);
    });

    it('show the store pool: size, open, in use, waiting, and the wait for a connection', () => {
      const labels = { dialect };
      assert.equal(total(samples, 'creator_api_store_connections_max', labels), dialect === 'sqlite' ? 1 : 10);
      assert.ok(total(samples, 'creator_api_store_connections_open', labels) >= 1);
      assert.equal(total(samples, 'creator_api_store_connections_in_use', labels), 0, 'nothing held between calls');
      assert.equal(total(samples, 'creator_api_store_connection_waiters', labels), 0);
      assert.ok(
        total(samples, 'creator_api_store_connection_wait_seconds_count', labels) > 5,
        'every call took a connection',
      );
    });

    it('show a call waiting for a connection while every one is held, and how long it waited', async () => {
      const labels = { dialect };
      const waitedBefore = total(samples, 'creator_api_store_connection_wait_seconds_sum', labels);
      const release = await holdEveryConnection(h.store);
      const waiting = rest.call('get_guide', { productId });
      let during: Sample[] = [];
      for (let i = 0; i < 100; i++) {
        during = (await scrape(h.app.metricsUrl as string)).samples;
        if (total(during, 'creator_api_store_connection_waiters', labels) > 0) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      await new Promise((r) => setTimeout(r, 50));
      await release();
      assertOk(await waiting);
      assert.equal(total(during, 'creator_api_store_connections_in_use', labels), h.store.probe.max);
      assert.ok(total(during, 'creator_api_store_connection_waiters', labels) >= 1, 'the call waited');
      const after = (await scrape(h.app.metricsUrl as string)).samples;
      assert.equal(total(after, 'creator_api_store_connection_waiters', labels), 0);
      assert.equal(total(after, 'creator_api_store_connections_in_use', labels), 0);
      const waited = total(after, 'creator_api_store_connection_wait_seconds_sum', labels) - waitedBefore;
      assert.ok(waited >= 0.05, `the wait was measured: ${waited} s`);
    });

    it('count cache hits, photo work, link-check work, and the event loop delay', () => {
      assert.ok(total(samples, 'creator_api_cache_lookups_total', { cache: 'guide_views', result: 'hit' }) >= 1);
      assert.ok(total(samples, 'creator_api_cache_lookups_total', { cache: 'guide_views', result: 'miss' }) >= 1);
      assert.ok(total(samples, 'creator_api_cache_lookups_total', { cache: 'auth_keys', result: 'hit' }) >= 1);
      assert.equal(total(samples, 'creator_api_photo_processing_seconds_count', { outcome: 'processed' }), 1);
      assert.ok(total(samples, 'creator_api_photo_upload_bytes_total') > 0);
      assert.equal(total(samples, 'creator_api_photo_uploads_in_progress'), 0);
      assert.equal(total(samples, 'creator_api_link_check_seconds_count', { status: 'ok' }), 1);
      assert.equal(site.requests.length >= 1, true);
      assert.ok(
        samples.some((s) => s.name === 'nodejs_eventloop_lag_p99_seconds'),
        'event loop delay',
      );
      assert.ok(samples.some((s) => s.name === 'process_cpu_seconds_total'));
    });

    it('keep labels bounded: no ids, no made-up tool names or paths', async () => {
      const { text } = await scrape(h.app.metricsUrl as string);
      for (const never of [
        productId,
        'gd_nosuchguide',
        'made_up_tool_7f3a',
        'made-up-path-9c2e',
        'nobody-4d1b',
        h.alice.creatorId,
      ]) {
        assert.ok(!text.includes(never), `${never} is in the metrics`);
      }
      assert.ok(
        total(samples, DURATION, { transport: 'mcp', operation: 'tools/call' }) >= 1,
        'the unknown tool as tools/call',
      );
      assert.ok(
        total(samples, DURATION, { route: '__unknown__', status_code: '404' }) >= 1,
        'the unknown path as one route',
      );
      const operations = new Set(samples.map((s) => s.labels.operation).filter((o) => o !== undefined));
      for (const operation of operations) {
        assert.ok(
          h.app.registry.get(operation as string) ||
            ['none', 'initialize', 'tools/call', 'tools/list', 'notifications/initialized', 'other'].includes(
              operation as string,
            ),
          `operation label ${operation}`,
        );
      }
    });

    it('two apps in one process keep their own request counts', async () => {
      const other = await startServer({ dialect, env: { METRICS_PORT: '0' } });
      try {
        const api = apiFor(other, 'rest', other.alice.writeKey);
        await newGuide(api, 'Elsewhere');
        await api.close();
        const mine = (await scrape(h.app.metricsUrl as string)).samples;
        const theirs = (await scrape(other.app.metricsUrl as string)).samples;
        assert.equal(total(theirs, DURATION, { operation: 'create_guide' }), 1);
        assert.equal(
          total(mine, DURATION, { operation: 'create_guide' }),
          1,
          'the first app did not count the second one',
        );
      } finally {
        await other.close();
      }
    });
  });
}
