import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { systemClock } from '../src/core/clock.ts';
import { KeyStore } from '../src/core/keys.ts';
import { loadObservability } from '../src/observability/index.ts';
import { CreatorsStore } from '../src/resources/profile/creators.store.ts';
import { openStore } from '../src/store.ts';

const mode = process.argv[2] ?? 'off';
const env: Record<string, string> = { DATA_DIR: mkdtempSync(join(tmpdir(), 'cost-')), LOG_LEVEL: 'silent', RATE_LIMIT_KEY_PER_MINUTE: '1000000000', RATE_LIMIT_CREATOR_PER_HOUR: '1000000000' };
if (mode.includes('metrics')) env.METRICS_PORT = '0';
if (mode.includes('tracing')) env.OTEL_EXPORTER_OTLP_ENDPOINT = 'http://127.0.0.1:4318';
const config = loadConfig(env);
const store = await openStore({ dataDir: config.dataDir });
const app = buildApp({ config, store, clock: systemClock, logger: pino({ level: 'silent' }), observability: await loadObservability(config) });
await app.listen('127.0.0.1', 0);
const creator = await new CreatorsStore({ db: store.db, clock: systemClock, dialect: store.dialect }).create({ email: 'c@example.com', displayName: 'C', agreementAccepted: true });
const { key } = await new KeyStore(store.db, systemClock).create({ creatorId: creator.creatorId, scope: 'write', publish: true });
const auth = { authorization: `Bearer ${key}` };
const made = await app.fastify.inject({ method: 'POST', url: '/api/v1/guides', headers: { ...auth, 'content-type': 'application/json' }, payload: { name: 'Cost' } });
const productId = made.json().productId;
const mcpHeaders = { ...auth, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'get_guide' };
const mcpBody = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_guide', arguments: { productId }, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'x', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} } } };
async function measure(name: string, run: () => Promise<unknown>, n: number) {
  for (let i = 0; i < 2000; i++) await run();
  const cpu = process.cpuUsage();
  for (let i = 0; i < n; i++) await run();
  const used = process.cpuUsage(cpu);
  return `${name} ${((used.user + used.system) / n).toFixed(1)} us/req`;
}
const out = [mode];
for (let round = 0; round < 3; round++) {
  out.push(await measure('rest', async () => { const r = await app.fastify.inject({ method: 'GET', url: `/api/v1/guides/${productId}`, headers: auth }); if (r.statusCode !== 200) throw new Error(r.body); }, 20000));
  out.push(await measure('mcp', async () => { const r = await app.fastify.inject({ method: 'POST', url: '/mcp', headers: mcpHeaders, payload: mcpBody }); if (r.statusCode !== 200) throw new Error(r.body); }, 5000));
}
console.log(out.join(' | '));
await app.close();
await store.close();
