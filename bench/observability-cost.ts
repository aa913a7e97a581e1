/**
 * node bench/observability-cost.ts: what metrics and traces cost a call. Four apps in this one
 * process (metrics and traces off; metrics on; traces on, exported to a local OTLP sink this script
 * starts; traces on and sampled at 0), each over its own SQLite store, answer `get_guide` over REST
 * and MCP (2026-07-28) through `inject`, in interleaved rounds, so that a busy machine slows all alike. It prints the CPU
 * time per call (min and median over the rounds): a difference between two apps is what turning the
 * feature on adds; the figures themselves include `inject`'s own work.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { systemClock } from '../src/core/clock.ts';
import { KeyStore } from '../src/core/keys.ts';
import { loadObservability } from '../src/observability/index.ts';
import { CreatorsStore } from '../src/resources/profile/creator.store.ts';
import { openStore } from '../src/store.ts';
import { startOtlpSink } from './otlp-sink.ts';

const ROUNDS = 10;
const REST_CALLS = 3000;
const MCP_CALLS = 400;

const sink = await startOtlpSink();
const sinkUrl = sink.endpoint;
const dirs: string[] = [];

async function variant(name: string, env: Record<string, string>) {
  const dataDir = mkdtempSync(join(tmpdir(), 'creator-api-observability-cost-'));
  dirs.push(dataDir);
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_KEY_PER_MINUTE: '1000000000',
    RATE_LIMIT_CREATOR_PER_HOUR: '1000000000',
    ...env,
  });
  const store = await openStore({ dataDir });
  const observability = await loadObservability(config);
  const app = buildApp({ config, store, clock: systemClock, logger: pino({ level: 'silent' }), observability });
  await app.listen('127.0.0.1', 0);
  const creator = await new CreatorsStore({ db: store.db, clock: systemClock, dialect: store.dialect }).create({
    email: 'cost@example.com',
    displayName: 'Cost',
    agreementAccepted: true,
  });
  const { key } = await new KeyStore(store.db, systemClock).create({
    creatorId: creator.creatorId,
    scope: 'write',
    publish: true,
  });
  const auth = { authorization: `Bearer ${key}` };
  const made = await app.fastify.inject({
    method: 'POST',
    url: '/api/v1/guides',
    headers: { ...auth, 'content-type': 'application/json' },
    payload: { name: 'Cost' },
  });
  const { productId } = made.json() as { productId: string };
  const mcpHeaders = {
    ...auth,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': 'tools/call',
    'mcp-name': 'get_guide',
  };
  const mcpBody = {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: {
      name: 'get_guide',
      arguments: { productId },
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: 'cost', version: '1.0.0' },
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    },
  };
  const expect200 = (answer: { statusCode: number; body: string }) => {
    if (answer.statusCode !== 200) throw new Error(`${name}: ${answer.statusCode} ${answer.body}`);
  };
  return {
    name,
    rest: async () =>
      expect200(await app.fastify.inject({ method: 'GET', url: `/api/v1/guides/${productId}`, headers: auth })),
    mcp: async () =>
      expect200(await app.fastify.inject({ method: 'POST', url: '/mcp', headers: mcpHeaders, payload: mcpBody })),
    restUs: [] as number[],
    mcpUs: [] as number[],
    close: async () => {
      await app.close();
      await store.close();
    },
  };
}

async function cpuPerCall(run: () => Promise<void>, calls: number): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < calls; i++) await run();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / calls;
}

const variants = [
  await variant('off', {}),
  await variant('metrics', { METRICS_PORT: '0' }),
  await variant('traces', { OTEL_EXPORTER_OTLP_ENDPOINT: sinkUrl }),
  await variant('unsampled', { OTEL_EXPORTER_OTLP_ENDPOINT: sinkUrl, OTEL_TRACES_SAMPLER_ARG: '0' }),
];
for (const v of variants) {
  await cpuPerCall(v.rest, REST_CALLS);
  await cpuPerCall(v.mcp, MCP_CALLS);
}
for (let round = 0; round < ROUNDS; round++) {
  for (const v of variants) {
    v.restUs.push(await cpuPerCall(v.rest, REST_CALLS));
    v.mcpUs.push(await cpuPerCall(v.mcp, MCP_CALLS));
  }
}
const summary = (us: number[]) => {
  const sorted = [...us].sort((a, b) => a - b);
  return `${sorted[0]?.toFixed(1)} / ${sorted[Math.floor(sorted.length / 2)]?.toFixed(1)} us`;
};
process.stdout.write('CPU per call through inject, min / median of interleaved rounds\n');
for (const v of variants) {
  process.stdout.write(`${v.name.padEnd(8)} REST get_guide ${summary(v.restUs)}   MCP get_guide ${summary(v.mcpUs)}\n`);
}
for (const v of variants) await v.close();
sink.close();
for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
