/**
 * Paging through a guide's spots (REST, default pages of full spots), on a 2,000-spot and a
 * 4,000-spot guide:
 * - a whole walk, page after page, each after a one-spot edit (so no page is served from the views
 *   kept per revision: every page is read from the store by keyset). Goal: the 4,000-spot walk at
 *   most 2.2x the 2,000-spot one (cost grows with the work, not the guide).
 * - 50 clients walking the 4,000-spot guide over and over (in a worker thread of their own), the
 *   guide edited once a second, while another creator's get_guide is timed one call at a time.
 *   Goal: its p99 under 50 ms.
 */
import { Worker } from 'node:worker_threads';
import { type JsonCall as Call, jsonCaller as caller, median } from './json-call.ts';
import { processCpuMs } from './machine.ts';
import { BATCH_SIZE } from './seed.ts';
import { fullSpot, seededRandom } from './spot-content.ts';

export const WALK_GOAL = 2.2;
export const P99_GOAL_MS = 50;
/** PostgreSQL's pages a second under the 50 walkers, as a share of SQLite's at least. */
export const STORES_PAGING_GOAL = 0.75;
const SIZES = [2000, 4000] as const;
const RUNS = 7;
export const CLIENTS = 50;
const LOAD_SECONDS = Number(process.env.BENCH_SECONDS ?? 8);

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

/** Every page of the guide's spots, in order; how many spots and pages it read. */
async function walk(call: Call, productId: string): Promise<{ spots: number; pages: number }> {
  let cursor: string | undefined;
  let spots = 0;
  let pages = 0;
  do {
    const query = cursor === undefined ? '' : `?cursor=${encodeURIComponent(cursor)}`;
    const page = await call<{ spots: unknown[]; nextCursor?: string }>('GET', `/guides/${productId}/spots${query}`);
    spots += page.spots.length;
    pages += 1;
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return { spots, pages };
}

export interface PagingBench {
  walkRatio: number;
  p99Ms: number;
  lines: string[];
}

/** A guide of `size` full spots made through the API, and its first spot (the one edited). */
export async function seedPagingGuide(
  call: Call,
  size: number,
): Promise<{ size: number; productId: string; spotId: string }> {
  const today = new Date().toISOString().slice(0, 10);
  const { productId } = await call<{ productId: string }>('POST', '/guides', { name: `Paging bench ${size}` });
  const rng = seededRandom(size + 1);
  const spots = Array.from({ length: size }, (_, i) => fullSpot(i, rng, today));
  for (let start = 0; start < spots.length; start += BATCH_SIZE) {
    await call('POST', `/guides/${productId}/spots/batch`, { spots: spots.slice(start, start + BATCH_SIZE) });
  }
  const first = await call<{ spots: Array<{ spotId: string }> }>('GET', `/guides/${productId}/spots?limit=1`);
  return { size, productId, spotId: first.spots[0]!.spotId };
}

export interface Fairness {
  p99Ms: number;
  pagesPerSecond: number;
  /** One line: the other creator's latencies and the walkers' pages. */
  line: string;
}

/**
 * Another creator's get_guide, timed one call at a time while CLIENTS clients walk `big` (in a
 * worker thread) and its creator edits it once a second.
 */
export async function pagingFairness(
  origin: string,
  key: string,
  otherKey: string,
  big: { productId: string; spotId: string },
  serverPid?: number,
): Promise<Fairness> {
  const call = caller(origin, key);
  const other = caller(origin, otherKey);
  const { productId: otherGuide } = await other<{ productId: string }>('POST', '/guides', { name: 'Another creator' });
  const cpuBefore = serverPid === undefined ? undefined : processCpuMs(serverPid);
  const worker = new Worker(new URL('./paging-walkers.ts', import.meta.url), {
    workerData: { origin, key, productId: big.productId, clients: CLIENTS },
  });
  const walked = new Promise<{ pages: number; failures: number }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const latencies: number[] = [];
  let edits = 0;
  const until = performance.now() + LOAD_SECONDS * 1000;
  let nextEdit = performance.now() + 1000;
  try {
    while (performance.now() < until) {
      if (performance.now() >= nextEdit) {
        await call('PATCH', `/spots/${big.spotId}`, { description: `Edit under load ${edits++}` });
        nextEdit += 1000;
      }
      const start = performance.now();
      await other('GET', `/guides/${otherGuide}`);
      latencies.push(performance.now() - start);
    }
  } finally {
    worker.postMessage('stop');
  }
  const load = await walked;
  await worker.terminate();
  const cpuAfter = serverPid === undefined ? undefined : processCpuMs(serverPid);
  // CPU time, unlike pages a second, is little moved by other work on a busy machine.
  const serverCpu =
    cpuBefore === undefined || cpuAfter === undefined
      ? ''
      : `; the server's CPU ${((cpuAfter - cpuBefore) / load.pages).toFixed(2)} ms a page`;
  if (load.failures > 0) throw new Error(`paging bench: ${load.failures} pages failed under load`);
  const p99Ms = percentile(latencies, 99);
  // The walkers start a second before the timing and stop with it.
  const pagesPerSecond = load.pages / (LOAD_SECONDS + 1);
  return {
    p99Ms,
    pagesPerSecond,
    line:
      `  ${latencies.length} calls: p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${p99Ms.toFixed(1)} ms, ` +
      `max ${Math.max(...latencies).toFixed(1)} ms ${p99Ms < P99_GOAL_MS ? 'ok' : 'ABOVE'} (goal p99 < ${P99_GOAL_MS} ms); ` +
      `the clients read ${load.pages} pages (${pagesPerSecond.toFixed(0)}/s), ${edits} edits${serverCpu}`,
  };
}

export async function benchPagingScale(
  origin: string,
  key: string,
  otherKey: string,
  serverPid?: number,
): Promise<PagingBench> {
  const call = caller(origin, key);
  const guides: Array<{ size: number; productId: string; spotId: string }> = [];
  for (const size of SIZES) guides.push(await seedPagingGuide(call, size));

  // Whole walks, the sizes taking turns; the first round warms up and is not counted.
  const samples = new Map<number, number[]>(SIZES.map((size) => [size, []]));
  const pagesOf = new Map<number, number>();
  for (let i = 0; i < RUNS + 1; i++) {
    for (const { size, productId, spotId } of guides) {
      await call('PATCH', `/spots/${spotId}`, { description: `Edit ${i}` });
      const start = performance.now();
      const read = await walk(call, productId);
      const ms = performance.now() - start;
      if (read.spots !== size) throw new Error(`paging bench: the walk read ${read.spots} of ${size} spots`);
      pagesOf.set(size, read.pages);
      if (i > 0) samples.get(size)!.push(ms);
    }
  }
  const [small, large] = SIZES.map((size) => median(samples.get(size)!));
  const walkRatio = large! / small!;

  // Another creator's guide, timed while 50 clients walk the big one and its creator edits it.
  const fairness = await pagingFairness(origin, key, otherKey, guides.find((g) => g.size === 4000)!, serverPid);

  const row = (size: number, ms: number) =>
    `  ${String(size).padStart(5)} spots  ${ms.toFixed(0).padStart(6)} ms a walk of ${pagesOf.get(size)} pages, ` +
    `${(ms / pagesOf.get(size)!).toFixed(2)} ms a page, ${((ms / size) * 1000).toFixed(1)} us a spot`;
  return {
    walkRatio,
    p99Ms: fairness.p99Ms,
    lines: [
      `Paging through list_spots (default pages of full spots), median of ${RUNS} walks, each after an edit:`,
      row(SIZES[0], small!),
      row(SIZES[1], large!),
      `  4,000 vs 2,000: ${walkRatio.toFixed(2)}x ${walkRatio <= WALK_GOAL ? 'ok' : 'ABOVE'} (goal <= ${WALK_GOAL}x)`,
      `Another creator's get_guide while ${CLIENTS} clients walk the 4,000-spot guide (edited once a second), ${LOAD_SECONDS} s:`,
      fairness.line,
    ],
  };
}
