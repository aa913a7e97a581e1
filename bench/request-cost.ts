/**
 * What one request costs the server, in a way a busy machine does not distort: the server's CPU
 * instructions per request, counted by valgrind's callgrind (repeatable to a fraction of a percent
 * under any load), or its CPU time per request (/proc; moves some with load). Not part of
 * `npm run bench`, which measures throughput on a quiet machine; this is for finding where a
 * request's work goes and comparing two commits while others use the machine.
 *
 *   npx node bench/request-cost.ts [--target rest|mcp2025|mcp2026|raw] [--requests N] [--warmup N]
 *                                  [--connections N] [--callgrind] [--strace] [--perf FILE]
 *                                  [--root DIR] [--profile DIR] [--traced RATIO] [--keep DIR]
 *                                  [--node-flags='--flag …'] [--allocated]
 *
 * --root runs another checkout's bench/app-server.ts (a worktree of an older commit, its own
 * node_modules), so the same requests measure both. --profile writes the server's --cpu-prof there.
 * The raw target is bench/raw-server.ts answering the app's exact bytes. --strace counts the system
 * calls per request (callgrind counts user space only: a lock or pread the kernel serves is not in
 * its figure). --perf records the server's on-CPU samples (Linux perf, task-clock: time the process
 * ran, not time it waited for a core) with JavaScript frames named (--perf-basic-prof), for
 * `perf report -i FILE`. --traced RATIO configures tracing (an OTLP sink in this process that keeps
 * nothing, `OTEL_TRACES_SAMPLER_ARG=RATIO`): `--traced 0` is what the tracing bench's unsampled
 * server runs. --keep DIR (with --callgrind) keeps callgrind's files and V8's map of its generated code
 * (--perf-basic-prof) there, to name the JavaScript functions callgrind counted by address.
 * --node-flags gives the measured server Node's or V8's flags (`--trace-gc`, heap sizes).
 * --allocated counts the bytes the server's heap allocates over the measured requests
 * (bench/allocation-window.ts), short-lived objects included.
 */
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { TargetRequest } from './context.ts';
import { type Child, npmStartEnv, type RunWith, startChild } from './ipc.ts';
import { startOtlpSink } from './otlp-sink.ts';
import { seedFixtures } from './seed.ts';
import { mcpGetGuide } from './targets.ts';

const { values: args } = parseArgs({
  options: {
    target: { type: 'string', default: 'rest' },
    requests: { type: 'string', default: '2000' },
    warmup: { type: 'string', default: '3000' },
    connections: { type: 'string', default: '4' },
    callgrind: { type: 'boolean', default: false },
    strace: { type: 'boolean', default: false },
    perf: { type: 'string' },
    root: { type: 'string' },
    profile: { type: 'string' },
    traced: { type: 'string' },
    keep: { type: 'string' },
    'node-flags': { type: 'string', default: '' },
    allocated: { type: 'boolean', default: false },
  },
});
const requests = Number(args.requests);
const warmup = Number(args.warmup);
const connections = Number(args.connections);
const log = (line: string) => process.stderr.write(`${line}\n`);

/** How the server child is run: plain, under callgrind (not counting until told), or profiled. */
function runner(outDir: string): RunWith {
  if (args.perf) return { execArgv: ['--perf-basic-prof'] };
  const nodeArgs = args.profile
    ? [`--cpu-prof`, `--cpu-prof-interval=50`, `--cpu-prof-dir=${resolve(args.profile)}`]
    : [];
  nodeArgs.push(...args['node-flags'].split(' ').filter(Boolean));
  // The bytes allocated over the measured requests, counted by the server itself (bench/allocation-window.ts).
  if (args.allocated)
    nodeArgs.push('--expose-gc', `--import=${new URL('./allocation-window.ts', import.meta.url).pathname}`);
  // V8's map of its generated code, so that callgrind's addresses can be named (--keep).
  if (args.keep) nodeArgs.push('--perf-basic-prof');
  if (!args.callgrind) return { execArgv: nodeArgs };
  return {
    execPath: 'valgrind',
    startupTimeoutMs: 600_000,
    execArgv: [
      '--tool=callgrind',
      '--instr-atstart=no',
      '--dump-line=no',
      '--separate-threads=yes',
      `--callgrind-out-file=${join(outDir, 'callgrind.out.%p')}`,
      process.execPath,
      ...nodeArgs,
    ],
  };
}

/** `count` requests over `connections` keep-alive connections, each connection one after another. */
async function send(req: TargetRequest, count: number): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const url = new URL(req.url);
  const one = () =>
    new Promise<void>((done, fail) => {
      const r = httpRequest(url, { method: req.method, headers: req.headers, agent }, (res) => {
        if (res.statusCode !== 200) fail(new Error(`${req.url} answered ${res.statusCode}`));
        res.resume();
        res.on('end', () => done());
      });
      r.on('error', fail);
      r.end(req.body);
    });
  let left = count;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (left-- > 0) await one();
    }),
  );
  agent.destroy();
}

/** Opens the server's allocation window; the returned function closes it and gives what it counted. */
async function allocationWindow(server: Child): Promise<() => Promise<{ bytes: number; collections: number }>> {
  const answer = <T>(type: string) =>
    new Promise<T>((resolve) => {
      const listener = (m: { type?: string }) => {
        if (m?.type !== type) return;
        server.process.off('message', listener);
        resolve(m as T);
      };
      server.process.on('message', listener);
    });
  const opened = answer('allocation-window-open');
  server.process.send({ type: 'allocation-window' });
  await opened;
  return () => {
    const counted = answer<{ bytes: number; collections: number }>('allocated');
    server.process.send({ type: 'allocation-window' });
    return counted;
  };
}

/** The server's user+system CPU time so far, in microseconds (Linux /proc). */
function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1e6) / 100;
}

function callgrindControl(pid: number, ...flags: string[]): void {
  execFileSync('callgrind_control', [...flags, String(pid)], { stdio: 'ignore' });
}

/** strace counting the system calls of every thread of `pid` until the returned function stops it. */
async function countSyscalls(pid: number, file: string): Promise<() => Promise<string[]>> {
  const strace = spawn('strace', ['-c', '-f', '-o', file, '-p', String(pid)], { stdio: ['ignore', 'ignore', 'pipe'] });
  let said = '';
  strace.stderr.on('data', (chunk: Buffer) => {
    said += chunk.toString();
  });
  // It says so once attached to the process's threads.
  while (!said.includes('attached')) await new Promise((r) => setTimeout(r, 50));
  await new Promise((r) => setTimeout(r, 300));
  return async () => {
    strace.kill('SIGINT');
    await once(strace, 'exit');
    // "% time  seconds  usecs/call  calls  errors  syscall" rows: calls per request of each.
    return readFileSync(file, 'utf8')
      .split('\n')
      .map((row) => row.trim().split(/\s+/))
      .filter((cols) => cols.length >= 5 && /^\d+$/.test(cols[3] ?? '') && cols.at(-1) !== 'total')
      .map((cols) => ({ name: cols.at(-1)!, calls: Number(cols[3]) / requests }))
      .filter((c) => c.calls >= 0.05)
      .sort((a, b) => b.calls - a.calls)
      .map((c) => `    ${c.calls.toFixed(2).padStart(6)} ${c.name}`);
  };
}

/** perf recording the on-CPU samples of `pid` (call graphs included) until the returned function stops it. */
async function recordPerf(pid: number, file: string): Promise<() => Promise<void>> {
  const perf = spawn('perf', ['record', '-e', 'task-clock', '-g', '-o', file, '-p', String(pid)], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await new Promise((r) => setTimeout(r, 500));
  return async () => {
    perf.kill('SIGINT');
    await once(perf, 'exit');
  };
}

/**
 * Instructions in callgrind's dumps of this process, of the main thread (file -01) and of all its
 * threads. The main thread's figure is the repeatable one: how much the compiler and garbage
 * collector threads get done meanwhile depends on how long the main thread waits for the client.
 * (Their totals line: the summary line reads 0 when instrumentation started off.)
 */
function callgrindInstructions(dir: string, pid: number): { main: number; all: number } {
  let main = 0;
  let all = 0;
  for (const file of readdirSync(dir).filter((f) => f.startsWith(`callgrind.out.${pid}`))) {
    const line = readFileSync(join(dir, file), 'utf8').match(/^totals: (\d+)/m);
    const n = line ? Number(line[1]) : 0;
    all += n;
    if (file.endsWith('-01')) main += n;
  }
  return { main, all };
}

/** Copies callgrind's files and V8's code map of `pid` to `dir`, for naming the generated code's costs. */
function keepCounts(from: string, pid: number, dir: string): void {
  mkdirSync(dir, { recursive: true });
  for (const file of readdirSync(from).filter((f) => f.startsWith(`callgrind.out.${pid}`))) {
    copyFileSync(join(from, file), join(dir, file));
  }
  copyFileSync(`/tmp/perf-${pid}.map`, join(dir, `perf-${pid}.map`));
}

async function main(): Promise<void> {
  const root = resolve(args.root ?? new URL('..', import.meta.url).pathname);
  const dataDir = mkdtempSync(join(tmpdir(), 'creator-api-request-cost-'));
  const children: Child[] = [];
  const sink = args.traced === undefined ? undefined : await startOtlpSink();
  try {
    const how = runner(dataDir);
    const env = {
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
      LOG_LEVEL: 'silent',
      RATE_LIMIT_KEY_PER_MINUTE: '1000000000',
      RATE_LIMIT_CREATOR_PER_HOUR: '1000000000',
      ...npmStartEnv(),
      // Under valgrind a request takes some 50 times as long, so a 2 s key cache would be read again
      // every few hundred requests instead of every tens of thousands: held for the run instead.
      ...(args.callgrind && { AUTH_CACHE_MS: '60000' }),
      ...(sink && { OTEL_EXPORTER_OTLP_ENDPOINT: sink.endpoint, OTEL_TRACES_SAMPLER_ARG: args.traced! }),
    };
    // The app is seeded plainly first; only the measured server runs under the chosen runner.
    const app = await startChild('app', join(root, 'bench/app-server.ts'), env, {
      cwd: root,
      ...(args.target === 'raw' ? {} : how),
    });
    children.push(app);
    const { guide } = await seedFixtures(app.ready.origin, app.ready.key!, new Set(['guide']), dataDir);
    let measured = app;
    let req: TargetRequest = {
      url: `${app.ready.origin}${guide!.path}`,
      method: 'GET',
      headers: { authorization: `Bearer ${app.ready.key}` },
    };
    if (args.target === 'raw') {
      const routes = join(dataDir, 'raw-routes.json');
      writeFileSync(
        routes,
        JSON.stringify({
          [guide!.path]: { body: guide!.reference.body.toString('base64'), contentType: guide!.reference.contentType },
        }),
      );
      measured = await startChild('raw', './raw-server.ts', { BENCH_ROUTES: routes }, how);
      children.push(measured);
      req = { ...req, url: `${measured.ready.origin}${guide!.path}` };
    } else if (args.target === 'mcp2025' || args.target === 'mcp2026') {
      const ctx = { rawOrigin: '', appOrigin: app.ready.origin, key: app.ready.key!, fixtures: { guide } };
      req = mcpGetGuide(args.target === 'mcp2025' ? 'legacy' : 'modern')(ctx);
    } else if (args.target !== 'rest') {
      throw new Error(`--target ${args.target}: rest, mcp2025, mcp2026 or raw`);
    }
    const pid = measured.process.pid!;
    await send(req, warmup);
    if (args.callgrind) callgrindControl(pid, '-i', 'on');
    const syscalls = args.strace ? await countSyscalls(pid, join(dataDir, 'strace.txt')) : undefined;
    const perf = args.perf ? await recordPerf(pid, resolve(args.perf)) : undefined;
    const allocated = args.allocated ? await allocationWindow(measured) : undefined;
    const cpuBefore = cpuMicros(pid);
    const started = performance.now();
    await send(req, requests);
    const seconds = (performance.now() - started) / 1000;
    const cpu = cpuMicros(pid) - cpuBefore;
    const allocation = await allocated?.();
    const perRequestSyscalls = await syscalls?.();
    await perf?.();
    const line = [
      `${args.target}${args.traced === undefined ? '' : ` traced at ${args.traced}`} ${root}: ${requests} requests over ${connections} connections after ${warmup} warm-up`,
      `  server CPU ${(cpu / requests).toFixed(1)} µs/request (${seconds.toFixed(1)} s wall)`,
    ];
    if (allocation) {
      line.push(
        `  ${Math.round(allocation.bytes / requests).toLocaleString('en')} bytes allocated/request (${allocation.collections} collections)`,
      );
    }
    if (perRequestSyscalls) line.push('  system calls per request:', ...perRequestSyscalls);
    if (args.callgrind) {
      // Counted no further; callgrind writes its counts when the process exits.
      callgrindControl(pid, '-i', 'off');
      await measured.stop(120_000);
      const { main, all } = callgrindInstructions(dataDir, pid);
      if (args.keep) keepCounts(dataDir, pid, resolve(args.keep));
      const per = (n: number) => Math.round(n / requests).toLocaleString('en');
      line.push(`  ${per(main)} instructions/request on the main thread (${per(all)} with every thread)`);
    }
    process.stdout.write(`${line.join('\n')}\n`);
  } finally {
    await Promise.all(children.map((c) => c.stop(args.callgrind ? 120_000 : 10_000)));
    sink?.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  log(`request-cost failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exitCode = 1;
});
