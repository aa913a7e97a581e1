/**
 * How fast the service comes up (`BENCH_ONLY=startup`), beside a bare Fastify server measured in
 * the same run, taking turns:
 * - the CPU time of importing src/app.ts against importing fastify (bench/import-cost.ts), without
 *   a compile cache (a fresh clone's first run) and with a warm one (every later run, and every
 *   test process of `npm test`), and how many modules each loads;
 * - the time from spawning `node src/main.ts` as `npm start` does (fresh SQLite store, so the
 *   migrations and the demo creator count) to its banner, against the bare server's
 *   (bench/bare-server.ts), and the CPU the process used by then. The first start finds the
 *   compile cache empty (TMPDIR is the run's own, so is the default cache under it); later starts
 *   find it filled.
 * Goals judge the warm ratios. CPU figures hold on a busy machine; wall times stretch with its load.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { npmStartEnv } from './ipc.ts';
import { median } from './json-call.ts';
import { processCpuMs } from './machine.ts';

/** The app's import may cost this many times Fastify's, with a warm compile cache. */
export const IMPORT_GOAL = 6;
/** `npm start` may take this many times as long as the bare server to print its banner, cache warm. */
export const START_GOAL = 5;
const BANNER_TIMEOUT_MS = 120_000;

const root = fileURLToPath(new URL('..', import.meta.url));
const runs = Math.max(1, Math.round(Number(process.env.BENCH_STARTUP_RUNS ?? 5)));

/** The environment a child starts with: the bench's, without any compile cache setting of its own. */
function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  if (!('NODE_COMPILE_CACHE' in extra)) delete env.NODE_COMPILE_CACHE;
  return env;
}

interface ImportCost {
  cpuMs: number;
  modules: number;
}

function importCost(module: string, env: Record<string, string>, count = false): Promise<ImportCost> {
  return new Promise((resolve, reject) => {
    const args = [join(root, 'bench/import-cost.ts'), module, ...(count ? ['--count'] : [])];
    const child = spawn(process.execPath, args, { cwd: root, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('close', (code) => {
      if (code === 0) resolve(JSON.parse(out) as ImportCost);
      else reject(new Error(`importing ${module} failed (exit ${code}): ${err.slice(0, 500)}`));
    });
  });
}

interface Start {
  wallMs: number;
  cpuMs: number;
}

/** Spawns a server, waits for its banner (a REST line, then a blank line), stops it. */
async function timeToBanner(args: string[], env: Record<string, string>): Promise<Start> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: root, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  try {
    return await new Promise<Start>((resolve, reject) => {
      let out = '';
      let stdout = '';
      const timer = setTimeout(
        () => reject(new Error(`${args[0]}: no banner within ${BANNER_TIMEOUT_MS} ms:\n${out}`)),
        BANNER_TIMEOUT_MS,
      );
      child.stderr.on('data', (chunk) => (out += chunk));
      child.stdout.on('data', (chunk) => {
        out += chunk;
        stdout += chunk;
        if (!(/REST\s+http:/.test(stdout) && stdout.endsWith('\n\n'))) return;
        clearTimeout(timer);
        resolve({ wallMs: performance.now() - started, cpuMs: processCpuMs(child.pid!) ?? Number.NaN });
      });
      void exited.then((code) => reject(new Error(`${args[0]} exited (code ${code}) before its banner:\n${out}`)));
    });
  } finally {
    await stop(child, exited);
  }
}

async function stop(child: ChildProcess, exited: Promise<unknown>): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(force);
}

const ms = (n: number) => `${Math.round(n)} ms`;
const ratio = (a: number, b: number) => (b > 0 ? a / b : Number.NaN);
const verdict = (r: number, goal: number) => (r <= goal ? 'PASS' : 'BELOW');

export interface StartupBench {
  lines: string[];
  importRatio: number;
  startRatio: number;
  below: boolean;
}

export async function benchStartup(): Promise<StartupBench> {
  const dir = mkdtempSync(join(tmpdir(), 'creator-api-bench-startup-'));
  const load = loadavg()[0]!;
  try {
    const uncached = { NODE_DISABLE_COMPILE_CACHE: '1' };
    const cached = { NODE_COMPILE_CACHE: join(dir, 'import-cache') };
    const app = join(root, 'src/app.ts');
    const [appModules, bareModules] = [await importCost(app, {}, true), await importCost('fastify', {}, true)];
    await importCost(app, cached);
    await importCost('fastify', cached);
    const cost = {
      app: { cold: [] as number[], warm: [] as number[] },
      bare: { cold: [] as number[], warm: [] as number[] },
    };
    for (let n = 0; n < runs; n++) {
      cost.app.cold.push((await importCost(app, uncached)).cpuMs);
      cost.bare.cold.push((await importCost('fastify', uncached)).cpuMs);
      cost.app.warm.push((await importCost(app, cached)).cpuMs);
      cost.bare.warm.push((await importCost('fastify', cached)).cpuMs);
    }

    // npm start's own environment, with a compile cache of the run's own: the first start finds it
    // empty, the later ones warm, as a machine's first and later starts do.
    const tmp = join(dir, 'tmp');
    mkdirSync(tmp);
    const serviceEnv = (n: number) => {
      const dataDir = join(dir, `data-${n}`);
      mkdirSync(dataDir);
      return {
        ...npmStartEnv(),
        NODE_COMPILE_CACHE: join(tmp, 'node-compile-cache'),
        TMPDIR: tmp,
        DATA_DIR: dataDir,
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'silent',
        DATABASE_URL: '',
        REDIS_URL: '',
      };
    };
    const bareEnv = { NODE_COMPILE_CACHE: join(dir, 'bare-cache') };
    const firstApp = await timeToBanner(['src/main.ts'], serviceEnv(0));
    const firstBare = await timeToBanner(['bench/bare-server.ts'], bareEnv);
    const later = { app: [] as Start[], bare: [] as Start[] };
    for (let n = 1; n <= runs; n++) {
      later.app.push(await timeToBanner(['src/main.ts'], serviceEnv(n)));
      later.bare.push(await timeToBanner(['bench/bare-server.ts'], bareEnv));
    }

    const m = {
      appCold: median(cost.app.cold),
      bareCold: median(cost.bare.cold),
      appWarm: median(cost.app.warm),
      bareWarm: median(cost.bare.warm),
      appWall: median(later.app.map((s) => s.wallMs)),
      bareWall: median(later.bare.map((s) => s.wallMs)),
      appCpu: median(later.app.map((s) => s.cpuMs)),
      bareCpu: median(later.bare.map((s) => s.cpuMs)),
    };
    const importRatio = ratio(m.appWarm, m.bareWarm);
    const startRatio = ratio(m.appWall, m.bareWall);
    const row = (cells: string[]) =>
      `  ${cells[0]!.padEnd(44)}${cells
        .slice(1)
        .map((c) => c.padStart(14))
        .join('')}`;
    const lines = [
      `Startup: medians of ${runs} runs taking turns; load average ${load.toFixed(1)} on ${availableParallelism()} cores at the start`,
      row(['', 'app', 'bare Fastify', 'ratio', 'goal', 'verdict']),
      row(['modules loaded by the import', String(appModules.modules), String(bareModules.modules), '', '', '']),
      row([
        'import CPU, no compile cache',
        ms(m.appCold),
        ms(m.bareCold),
        ratio(m.appCold, m.bareCold).toFixed(1),
        '',
        '',
      ]),
      row([
        'import CPU, warm compile cache',
        ms(m.appWarm),
        ms(m.bareWarm),
        importRatio.toFixed(1),
        `≤ ${IMPORT_GOAL}`,
        verdict(importRatio, IMPORT_GOAL),
      ]),
      row(['spawn to banner, first start (empty cache)', ms(firstApp.wallMs), ms(firstBare.wallMs), '', '', '']),
      row(['  CPU by then', ms(firstApp.cpuMs), ms(firstBare.cpuMs), '', '', '']),
      row([
        'spawn to banner, later starts',
        ms(m.appWall),
        ms(m.bareWall),
        startRatio.toFixed(1),
        `≤ ${START_GOAL}`,
        verdict(startRatio, START_GOAL),
      ]),
      row(['  CPU by then', ms(m.appCpu), ms(m.bareCpu), ratio(m.appCpu, m.bareCpu).toFixed(1), '', '']),
      `  load average ${loadavg()[0]!.toFixed(1)} at the end; wall times stretch with it, CPU times much less`,
    ];
    return { lines, importRatio, startRatio, below: importRatio > IMPORT_GOAL || startRatio > START_GOAL };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
