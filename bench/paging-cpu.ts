/**
 * What a list_spots page costs the server under the paging fairness load (paging-scale.ts), by
 * count rather than by the clock, so that it holds on a busy machine: the server's CPU a page (from
 * /proc) and the longest stretches its event loop was kept from turning (monitorEventLoopDelay,
 * resolution 1 ms), which bound how long another creator's small call can wait. A fixed number of
 * pages, not seconds, with an edit every EDIT_EVERY pages (about once a second at a quiet machine's
 * rate), so every run builds as many pages. The app runs as bench/app-server.ts does for the bench.
 * Run alone, on either store:
 *   node bench/paging-cpu.ts [sqlite|postgres]   (PAGES, 3000; EDIT_EVERY, 1300; PAGING_SPOTS, 4000;
 *   ROUNDS, 2 after a warm-up; CPU_PROF_DIR, a folder for the server's --cpu-prof)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshPostgresSchema } from '../test/helpers/dialects.ts';
import { BENCH_APP_ENV, type Child, npmStartEnv, startChild } from './ipc.ts';
import { jsonCaller } from './json-call.ts';
import { processCpuMs } from './machine.ts';
import { CLIENTS, seedPagingGuide } from './paging-scale.ts';

const store = process.argv[2] ?? 'sqlite';
const PAGES = Number(process.env.PAGES ?? 3000);
const EDIT_EVERY = Number(process.env.EDIT_EVERY ?? 1300);
const SPOTS = Number(process.env.PAGING_SPOTS ?? 4000);
const ROUNDS = Number(process.env.ROUNDS ?? 2);

interface LoopDelay {
  maxMs: number;
  p99Ms: number;
  p999Ms: number;
  meanMs: number;
  cpuLongestMs: number[];
  cpuOver10: number;
  cpuOver20: number;
  mainThreadCpuMs: number;
  gcLongestMs: number[];
  gcMs: number;
  heapMb: number;
}

function loopDelay(app: Child): Promise<LoopDelay> {
  return new Promise((resolve) => {
    const answer = (m: { type?: string } & LoopDelay) => {
      if (m?.type !== 'loop-delay') return;
      app.process.off('message', answer);
      resolve(m);
    };
    app.process.on('message', answer);
    app.process.send({ type: 'loop-delay' });
  });
}

const dir = mkdtempSync(join(tmpdir(), 'creator-api-paging-cpu-'));
const schema =
  store === 'postgres'
    ? await freshPostgresSchema(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test', 'bench')
    : undefined;
const app = await startChild(
  'app',
  './app-server.ts',
  {
    DATA_DIR: dir,
    ...BENCH_APP_ENV,
    ...npmStartEnv(),
    BENCH_LOOP_DELAY: '1',
    ...(schema && { DATABASE_URL: schema.url }),
  },
  process.env.CPU_PROF_DIR ? { execArgv: ['--cpu-prof', `--cpu-prof-dir=${process.env.CPU_PROF_DIR}`] } : {},
);
try {
  const { origin, key, otherKey } = app.ready;
  const call = jsonCaller(origin, key!);
  const other = jsonCaller(origin, otherKey!);
  const big = await seedPagingGuide(call, SPOTS);
  const { productId: otherGuide } = await other<{ productId: string }>('POST', '/guides', { name: 'Another' });
  for (let round = 0; round <= ROUNDS; round++) {
    let pages = 0;
    let edits = 0;
    let editing: Promise<unknown> = Promise.resolve();
    const waits: number[] = [];
    await loopDelay(app);
    const cpuBefore = processCpuMs(app.process.pid!)!;
    const walker = async () => {
      let cursor: string | undefined;
      while (pages < PAGES) {
        const query = cursor === undefined ? '' : `?cursor=${encodeURIComponent(cursor)}`;
        // As the bench's walkers ask (fetch's default Accept-Encoding: gzip, deflate).
        const res = await fetch(`${origin}/api/v1/guides/${big.productId}/spots${query}`, {
          headers: { authorization: `Bearer ${key}` },
        });
        const body = (await res.json()) as { nextCursor?: string };
        if (res.status !== 200) throw new Error(`page answered ${res.status}`);
        cursor = body.nextCursor;
        pages += 1;
        if (pages % EDIT_EVERY === 0) {
          editing = call('PATCH', `/spots/${big.spotId}`, { description: `Edit ${edits++}` });
          await editing;
        }
      }
    };
    const timeOther = async () => {
      while (pages < PAGES) {
        const start = performance.now();
        await other('GET', `/guides/${otherGuide}`);
        waits.push(performance.now() - start);
      }
    };
    await Promise.all([...Array.from({ length: CLIENTS }, walker), timeOther()]);
    await editing;
    const cpuMs = processCpuMs(app.process.pid!)! - cpuBefore;
    const loop = await loopDelay(app);
    waits.sort((a, b) => a - b);
    const p99 = waits[Math.min(waits.length - 1, Math.ceil(0.99 * waits.length) - 1)] ?? Number.NaN;
    // The first round warms up (JIT, kept pages) and is not counted.
    process.stdout.write(
      `${store} ${round === 0 ? 'warm-up' : `round ${round}`}: ${pages} pages, ${edits} edits, ` +
        `server CPU ${(cpuMs / pages).toFixed(2)} ms a page (its main thread ${(loop.mainThreadCpuMs / pages).toFixed(2)}); event loop delay max ${loop.maxMs.toFixed(1)} ms, ` +
        `p99.9 ${loop.p999Ms.toFixed(1)}, p99 ${loop.p99Ms.toFixed(1)}, mean ${loop.meanMs.toFixed(2)}; ` +
        `CPU between turns: longest ${loop.cpuLongestMs.map((x) => x.toFixed(1)).join(' ')} ms, ` +
        `${loop.cpuOver10} over 10 ms, ${loop.cpuOver20} over 20 ms; ` +
        `collections ${(loop.gcMs / pages).toFixed(3)} ms a page, longest ${loop.gcLongestMs.map((x) => x.toFixed(1)).join(' ')} ms, heap ${loop.heapMb.toFixed(0)} MB at the end; ` +
        `other creator's get_guide (wall, busy machine) p99 ${p99.toFixed(1)} ms of ${waits.length}\n`,
    );
  }
} finally {
  await app.stop();
  await schema?.drop();
  rmSync(dir, { recursive: true, force: true });
}
