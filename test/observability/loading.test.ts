import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { loaded, serviceLoading } from '../helpers/module-loading.ts';
import { startService } from '../helpers/service.ts';
import { scrape, total } from './exposition.ts';
import { startOtlpReceiver } from './otlp-receiver.ts';

const METRICS_PACKAGES = ['/@prometheus-io/client/', '/src/observability/metrics.ts'];
const TRACING_PACKAGES = [
  '/@opentelemetry/sdk-trace/',
  '/@opentelemetry/exporter-trace-otlp-http/',
  '/@opentelemetry/context-async-hooks/',
  '/src/observability/tracing.ts',
];

describe('metrics and traces cost nothing when off', () => {
  it('with neither set, the service loads no metrics client and no OpenTelemetry package', async () => {
    const modules = await serviceLoading({}, async (banner) => {
      assert.doesNotMatch(banner, /Metrics|Traces/);
    });
    assert.ok(
      modules.some((m) => m.endsWith('/src/app.ts')),
      'the recorder saw the app load',
    );
    assert.deepEqual(loaded(modules, [...METRICS_PACKAGES, ...TRACING_PACKAGES, '/@opentelemetry/']), []);
  });

  it('METRICS_PORT loads the metrics client only; npm start prints where they are, and they answer', async () => {
    const modules = await serviceLoading({ METRICS_PORT: '0' }, async (banner) => {
      const url = /Metrics\s+(http:\/\/127\.0\.0\.1:\d+\/metrics)/.exec(banner)?.[1];
      assert.ok(url, banner);
      const { status, samples } = await scrape(url);
      assert.equal(status, 200);
      assert.ok(total(samples, 'creator_api_store_connections_max', { dialect: 'sqlite' }) === 1);
    });
    assert.deepEqual(loaded(modules, METRICS_PACKAGES), METRICS_PACKAGES);
    // The metrics client itself requires OpenTelemetry's API package (its CPU metric asks it for the
    // active trace); no SDK, exporter or hook comes with it.
    assert.deepEqual(loaded(modules, TRACING_PACKAGES), []);
  });

  it('an OTLP endpoint loads OpenTelemetry, and the banner names where traces go', async () => {
    const receiver = await startOtlpReceiver();
    const modules = await serviceLoading({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint }, async (banner) => {
      assert.match(banner, new RegExp(`Traces\\s+${receiver.endpoint}/v1/traces`));
      assert.equal((await fetch(`${/REST\s+(http:\/\/\S+)\/api\/v1/.exec(banner)?.[1]}/readyz`)).status, 200);
    });
    assert.deepEqual(loaded(modules, TRACING_PACKAGES), TRACING_PACKAGES);
    assert.deepEqual(loaded(modules, METRICS_PACKAGES), []);
  });

  it('a metrics port already taken stops the start with a sentence naming METRICS_PORT', async () => {
    const { createServer } = await import('node:net');
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    after(() => taken.close());
    const port = (taken.address() as { port: number }).port;
    const dir = mkdtempSync(join(tmpdir(), 'creator-api-loading-'));
    after(() => rmSync(dir, { recursive: true, force: true }));
    await assert.rejects(startService(dir, { METRICS_PORT: String(port) }), (err: Error) => {
      assert.match(
        err.message,
        new RegExp(`cannot listen on 127\\.0\\.0\\.1:${port}: the port is in use; set METRICS_PORT`),
      );
      return true;
    });
  });
});
