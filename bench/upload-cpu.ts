/**
 * CPU time of a photo upload against the bare sharp pipeline, both in this one process (the same
 * sharp, libvips threads and allocator settings), taking turns: what the app's path adds beyond
 * the pipeline, measured in CPU rather than wall-clock time, so other work on a shared machine moves
 * it little. Each turn times three things on the 12 MP bench JPEG:
 *   bare      renderRenditions (the bench's baseline)
 *   transfer  the same body POSTed to a bare node:http server here, read whole, answered 201
 *   upload    upload_media over REST to the real app (buildApp) listening here
 * process.cpuUsage() counts every thread of the process (libvips' too); the client's side of the
 * transfer is counted in both `transfer` and `upload`. GC time per phase comes from V8's gc entries.
 * CPU by thread name comes from /proc (threads that ended meanwhile, some of libvips', are missed).
 * Run alone: npx node bench/upload-cpu.ts [turns] [--bucket] [--multipart] [--v8-heap-default]
 * (with npm start's allocator settings, as the bench's app runs: MALLOC_ARENA_MAX=2
 *  MALLOC_MMAP_THRESHOLD_=131072 GLIBC_TUNABLES=glibc.malloc.hugetlb=1 npx node bench/upload-cpu.ts;
 *  bench/upload-timeline.ts compares processes started each as its own `npm start` starts it);
 * UPLOAD_CPU_PROFILE=file.cpuprofile profiles the main thread over `turns` uploads instead
 * (with --profile-bare, bare pipelines).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import pino from 'pino';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { systemClock } from '../src/core/clock.ts';
import { applyHeapPolicy } from '../src/heap-policy.ts';
import { renderRenditions } from '../src/resources/media/image-pipeline.ts';
import { openStore } from '../src/store.ts';
import { benchCreatorKey } from './bench-creator.ts';
import { BENCH_APP_ENV, type Child, startChild } from './ipc.ts';
import { median } from './json-call.ts';
import { processCpuMs } from './machine.ts';
import { makeBenchJpeg } from './media-pipeline.ts';
import { closeConnections, postBytes } from './post-bytes.ts';
import { benchBucketEnv } from './s3-server.ts';

// As main.ts and the bench's app server do; --v8-heap-default measures V8's own pacing instead.
if (!process.argv.includes('--v8-heap-default')) applyHeapPolicy();
const turns = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 15);
const bucket = process.argv.includes('--bucket');
const multipart = process.argv.includes('--multipart');

let gcMs = 0;
let gcMajor = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    gcMs += e.duration;
    // NODE_PERFORMANCE_GC_MAJOR = 4 (mark-compact), INCREMENTAL = 8
    if (((e as { detail?: { kind?: number } }).detail?.kind ?? 0) & 4) gcMajor++;
  }
}).observe({ entryTypes: ['gc'] });

/** CPU ms so far of this process's threads, summed by thread name (main, V8 workers, libuv, libvips). */
function threadCpu(): Map<string, number> {
  const byName = new Map<string, number>();
  const tick = 1000 / 100; // USER_HZ
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      let name = readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim();
      if (tid === String(process.pid)) name = 'main';
      name = name.replace(/\d+$/, '').replace(/[-_ ]$/, '');
      const ms = (Number(fields[11]) + Number(fields[12])) * tick;
      byName.set(name, (byName.get(name) ?? 0) + ms);
    } catch {
      // a thread that ended meanwhile
    }
  }
  return byName;
}

function threadDelta(before: Map<string, number>, after: Map<string, number>): Map<string, number> {
  const delta = new Map<string, number>();
  for (const [name, ms] of after) delta.set(name, ms - (before.get(name) ?? 0));
  return delta;
}

interface Sample {
  threads: Map<string, number>;
  /** CPU of the bench's S3 server (another process on the same cores), with --bucket. */
  s3Ms: number;
  cpuMs: number;
  wallMs: number;
  gcMs: number;
  majors: number;
}

/** CPU ms so far of the S3 server's process (every thread), 0 without one. */
const s3Cpu = () => (s3Pid === undefined ? 0 : (processCpuMs(s3Pid) ?? 0));

async function measure(work: () => Promise<unknown>): Promise<Sample> {
  const [gc0, maj0] = [gcMs, gcMajor];
  const s3Cpu0 = s3Cpu();
  const threads0 = threadCpu();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await work();
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const threads = threadDelta(threads0, threadCpu());
  // gc entries are delivered asynchronously: let them arrive before reading the tally.
  await new Promise((r) => setImmediate(r));
  const s3Ms = s3Cpu() - s3Cpu0;
  return { threads, s3Ms, cpuMs: (cpu.user + cpu.system) / 1000, wallMs, gcMs: gcMs - gc0, majors: gcMajor - maj0 };
}

const children: Child[] = [];
const dataDir = mkdtempSync(join(tmpdir(), 'creator-api-upload-cpu-'));
let s3Env: Record<string, string> = {};
let s3Pid: number | undefined;
if (bucket) {
  const s3 = await startChild('s3', './s3-server.ts', {});
  children.push(s3);
  s3Env = benchBucketEnv(s3.ready.origin);
  s3Pid = s3.process.pid;
}
const config = loadConfig({
  ...process.env,
  ...s3Env,
  HOST: '127.0.0.1',
  PORT: '0',
  DATA_DIR: dataDir,
  ...BENCH_APP_ENV,
});
const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
const app = buildApp({ config, store, clock: systemClock, logger: pino({ level: 'silent' }) });
const origin = await app.listen('127.0.0.1', 0);
const key = await benchCreatorKey(store, 'cpu@example.com', 'CPU Bench');
const auth = { authorization: `Bearer ${key}` };
const made = await postBytes(
  `${origin}/api/v1/guides`,
  { ...auth, 'content-type': 'application/json' },
  Buffer.from('{"name":"CPU"}'),
);
const { productId } = JSON.parse(made.text) as { productId: string };

const bare = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    Buffer.concat(chunks);
    res.writeHead(201, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
});
await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/`;

const jpeg = await makeBenchJpeg();
const boundary = 'upload-cpu-boundary';
const body = multipart
  ? Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="credit"\r\n\r\nBench\r\n--${boundary}\r\n` +
          'Content-Disposition: form-data; name="file"; filename="bench.jpg"\r\nContent-Type: image/jpeg\r\n\r\n',
      ),
      jpeg,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ])
  : jpeg;
const uploadUrl = `${origin}/api/v1/media/upload?productId=${productId}${multipart ? '' : '&credit=Bench'}`;
const uploadHeaders = {
  ...auth,
  'content-type': multipart ? `multipart/form-data; boundary=${boundary}` : 'image/jpeg',
};

async function upload(): Promise<void> {
  const res = await postBytes(uploadUrl, uploadHeaders, body);
  if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${res.text.slice(0, 300)}`);
}
const transfer = () => postBytes(bareUrl, { 'content-type': 'image/jpeg' }, body);
const pipeline = () => renderRenditions(jpeg, 'jpeg');

// Warm-up: libvips' first load, the app's first upload, JIT.
for (let i = 0; i < 2; i++) {
  await pipeline();
  await transfer();
  await upload();
}

const samples = { bare: [] as Sample[], transfer: [] as Sample[], upload: [] as Sample[] };
const profile = process.env.UPLOAD_CPU_PROFILE;
if (profile) {
  // The main thread's JS of `turns` uploads (or bare pipelines) alone, for Chrome DevTools.
  const session = new Session();
  session.connect();
  await session.post('Profiler.setSamplingInterval', { interval: 250 });
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  for (let i = 0; i < turns; i++) await (process.argv.includes('--profile-bare') ? pipeline() : upload());
  writeFileSync(profile, JSON.stringify((await session.post('Profiler.stop')).profile));
} else {
  for (let i = 0; i < turns; i++) {
    samples.bare.push(await measure(pipeline));
    samples.transfer.push(await measure(transfer));
    samples.upload.push(await measure(upload));
  }
  report();
}

function report(): void {
  const row = (name: string, s: Sample[]) =>
    `${name.padEnd(9)} cpu ${median(s.map((x) => x.cpuMs))
      .toFixed(0)
      .padStart(4)} ms  wall ${median(s.map((x) => x.wallMs))
      .toFixed(0)
      .padStart(4)} ms  gc ${median(s.map((x) => x.gcMs))
      .toFixed(1)
      .padStart(
        5,
      )} ms  major GCs ${s.reduce((n, x) => n + x.majors, 0)}/${s.length}  (cpu ${s.map((x) => x.cpuMs.toFixed(0)).join(' ')})`;
  const cpuRatio = median(samples.upload.map((x) => x.cpuMs)) / median(samples.bare.map((x) => x.cpuMs));
  const wallRatio = median(samples.upload.map((x) => x.wallMs)) / median(samples.bare.map((x) => x.wallMs));
  console.log(
    `${bucket ? 'bucket' : 'disk'}${multipart ? ', multipart' : ', raw body'}, ${turns} turns, ` +
      `MALLOC_ARENA_MAX=${process.env.MALLOC_ARENA_MAX ?? '-'} MALLOC_MMAP_THRESHOLD_=${process.env.MALLOC_MMAP_THRESHOLD_ ?? '-'}`,
  );
  console.log(row('bare', samples.bare));
  console.log(row('transfer', samples.transfer));
  console.log(row('upload', samples.upload));
  const perThread = (s: Sample[]) => {
    const sums = new Map<string, number>();
    for (const x of s) for (const [name, ms] of x.threads) sums.set(name, (sums.get(name) ?? 0) + ms / s.length);
    return [...sums]
      .filter(([, ms]) => ms >= 0.5)
      .sort((a, b) => b[1] - a[1])
      .map(([name, ms]) => `${name} ${ms.toFixed(0)}`)
      .join(', ');
  };
  console.log(`mean CPU ms by thread: bare: ${perThread(samples.bare)}`);
  console.log(`                       upload: ${perThread(samples.upload)}`);
  if (bucket) {
    const s3 = samples.upload.map((x) => x.s3Ms);
    console.log(
      `S3 server (its own process, same cores) per upload: median ${median(s3).toFixed(0)} ms of CPU (${s3.map((v) => v.toFixed(0)).join(' ')})`,
    );
  }
  console.log(`upload / bare: cpu ${cpuRatio.toFixed(3)}  wall ${wallRatio.toFixed(3)}`);
}

closeConnections();
bare.close();
await app.close();
await store.close();
for (const child of children) await child.stop();
rmSync(dataDir, { recursive: true, force: true });
