// One kind of write repeated under callgrind, with or without history: WITHOUT=1 to drop the triggers.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
const repo = process.argv[2]!;
const { buildApp } = await import(`${repo}/src/app.ts`);
const { loadConfig } = await import(`${repo}/src/config.ts`);
const { openStore } = await import(`${repo}/src/store.ts`);
const { dropHistoryTriggers } = await import(`${repo}/src/db/history-triggers.ts`);
const { systemClock } = await import(`${repo}/src/core/clock.ts`);
const { benchCreatorKey } = await import(`${repo}/bench/bench-creator.ts`);
const without = process.env.WITHOUT === '1';
const dir = mkdtempSync(join(tmpdir(), 'cgw-'));
const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', RATE_LIMIT_KEY_PER_MINUTE: '1000000', RATE_LIMIT_CREATOR_PER_HOUR: '100000000' });
const store = await openStore({ dataDir: dir });
if (without) await dropHistoryTriggers(store.db, store.dialect);
const app = buildApp({ config, store, withoutHistory: without, clock: systemClock, logger: pino({ level: 'silent' }) });
const key = await benchCreatorKey(store, 'f@example.com', 'F');
const call = async (method: string, url: string, payload?: unknown) => {
  const r = await app.fastify.inject({ method, url: `/api/v1${url}`, headers: { authorization: `Bearer ${key}` }, payload });
  if (r.statusCode >= 300) throw new Error(`${url} ${r.statusCode} ${r.body}`);
  return r.json();
};
const guide = await call('POST', '/guides', { name: 'Frames' });
const spots: string[] = [];
for (let i = 0; i < 100; i++) spots.push((await call('POST', `/guides/${guide.productId}/spots`, { name: `Spot ${i}`, description: 'x'.repeat(300) })).spotId);
for (let i = 0; i < 300; i++) await call('PATCH', `/spots/${spots[i % spots.length]}`, { description: `warm ${i}` });
const { execSync } = await import('node:child_process');
const N = Number(process.env.N ?? 500);
try { execSync(`callgrind_control -i on ${process.pid}`); } catch {}
for (let i = 0; i < N; i++) await call('PATCH', `/spots/${spots[i % spots.length]}`, { description: `visit ${i}` });
try { execSync(`callgrind_control -i off ${process.pid}`); } catch {}
await app.close();
await store.close();
process.exit(0);
