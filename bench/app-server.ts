/**
 * Child process: the real Creator API (buildApp, as src/main.ts wires it) on a free loopback port,
 * over the SQLite store in DATA_DIR (or PostgreSQL at DATABASE_URL), with one creator and a
 * write+publish key made through the stores as the test harness does, a second creator with a key
 * of its own, and BENCH_CREATORS more (the mixed load's assistants, a key each). Reports
 * { origin, key, otherKey, keys } to the parent over IPC and stops on { type: 'stop' } (or when the
 * parent goes away).
 */
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import pino from 'pino';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { systemClock } from '../src/core/clock.ts';
import { dropHistoryTriggers } from '../src/db/history-triggers.ts';
import { applyHeapPolicy } from '../src/heap-policy.ts';
import { loadObservability } from '../src/observability/index.ts';
import { openStore } from '../src/store.ts';
import { benchCreatorKey } from './bench-creator.ts';
import { onStop, type ReadyMessage } from './ipc.ts';

applyHeapPolicy();
const config = loadConfig({ ...process.env, HOST: '127.0.0.1', PORT: '0' });
const store = await openStore({
  databaseUrl: config.databaseUrl,
  dataDir: config.dataDir,
  preparedStatements: config.databasePreparedStatements,
});
// The history bench's baseline: the same writes recording nothing (bench/history-cost.ts).
const withoutHistory = process.env.BENCH_WITHOUT_HISTORY === '1';
if (withoutHistory) await dropHistoryTriggers(store.db, store.dialect);
const app = buildApp({
  config,
  store,
  withoutHistory,
  clock: systemClock,
  logger: pino({ level: 'silent' }),
  // METRICS_PORT or an OTLP endpoint in the bench's environment measure what they cost.
  observability: await loadObservability(config),
});
const origin = await app.listen('127.0.0.1', 0);

const creatorKey = (email: string, displayName: string) => benchCreatorKey(store, email, displayName);

const key = await creatorKey('bench@example.com', 'Bench Creator');
// Another creator, whose reads are timed while the first one's guides are under load.
const otherKey = await creatorKey('other@example.com', 'Other Creator');
const keys: string[] = [];
for (let n = 1; n <= Number(process.env.BENCH_CREATORS ?? 0); n++) {
  keys.push(await creatorKey(`bench${n}@example.com`, `Bench Creator ${n}`));
}

// The longest stretches the event loop was kept from turning, asked for over IPC
// (bench/paging-cpu.ts): as wall time (monitorEventLoopDelay, which a busy machine inflates by the
// time the process waits for a core) and as this thread's CPU time between two turns of a 1 ms
// timer, which it does not.
if (process.env.BENCH_LOOP_DELAY === '1') {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  let stretches: number[] = [];
  // Collections among them: a long stretch may be V8's, not the app's.
  let collections: number[] = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) collections.push(entry.duration);
  }).observe({ entryTypes: ['gc'] });
  let last = process.threadCpuUsage();
  setInterval(() => {
    const now = process.threadCpuUsage();
    stretches.push((now.user - last.user + now.system - last.system) / 1000);
    last = now;
  }, 1).unref();
  process.on('message', (m: { type?: string }) => {
    if (m?.type !== 'loop-delay') return;
    const ms = (ns: number) => ns / 1e6;
    const cpu = stretches.sort((a, b) => b - a);
    process.send?.({
      type: 'loop-delay',
      maxMs: ms(delay.max),
      p99Ms: ms(delay.percentile(99)),
      p999Ms: ms(delay.percentile(99.9)),
      meanMs: ms(delay.mean),
      // The CPU of the ten longest stretches, and how many passed 10 and 20 ms.
      cpuLongestMs: cpu.slice(0, 10),
      cpuOver10: cpu.filter((x) => x > 10).length,
      cpuOver20: cpu.filter((x) => x > 20).length,
      mainThreadCpuMs: cpu.reduce((a, b) => a + b, 0),
      gcLongestMs: collections.sort((a, b) => b - a).slice(0, 5),
      gcMs: collections.reduce((a, b) => a + b, 0),
      heapMb: process.memoryUsage().heapUsed / 1e6,
    });
    delay.reset();
    stretches = [];
    collections = [];
    last = process.threadCpuUsage();
  });
}

onStop(async () => {
  await app.close();
  await store.close();
});
const ready: ReadyMessage = { type: 'ready', origin, key, otherKey, keys, dialect: store.dialect };
// Run alone (to profile it with node --cpu-prof), it says where it listens and with which key.
if (process.send) process.send(ready);
else process.stdout.write(`${origin} ${key}\n`);
