/**
 * Readiness and publish_changes on a 2,000-spot and a 4,000-spot guide (REST, one call at a time,
 * median of several): both read each table once, so their cost should grow linearly. Goal: the
 * 4,000-spot figure at most 2.2x the 2,000-spot one. The guides go on sale through the admin
 * command line on the app's DATA_DIR, as the studio would, which writes their first release; each
 * timed publish follows a one-spot edit, so every one writes a new release.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { jsonCaller, median } from './json-call.ts';
import { BATCH_SIZE } from './seed.ts';
import { fullSpot, seededRandom } from './spot-content.ts';

export const SCALE_GOAL = 2.2;
const SIZES = [2000, 4000] as const;
const RUNS = 7;
const ROOT = join(import.meta.dirname, '..');

export interface ScaleBench {
  worstRatio: number;
  lines: string[];
}

export async function benchPublishingScale(origin: string, key: string, dataDir: string): Promise<ScaleBench> {
  const call = jsonCaller(origin, key);
  const timed = async (work: () => Promise<unknown>) => {
    const start = performance.now();
    await work();
    return performance.now() - start;
  };
  const today = new Date().toISOString().slice(0, 10);
  const guides: Array<{ size: number; productId: string; spotId: string }> = [];
  for (const size of SIZES) {
    const { productId } = await call<{ productId: string }>('POST', '/guides', { name: `Publishing bench ${size}` });
    await call('PUT', `/guides/${productId}/price`, { amountMinor: 2900, currency: 'eur' });
    const rng = seededRandom(size);
    const spots = Array.from({ length: size }, (_, i) => fullSpot(i, rng, today));
    for (let start = 0; start < spots.length; start += BATCH_SIZE) {
      await call('POST', `/guides/${productId}/spots/batch`, { spots: spots.slice(start, start + BATCH_SIZE) });
    }
    await promisify(execFile)(
      join(ROOT, 'node_modules/.bin/node'),
      ['src/admin/cli.ts', 'guide', 'status', '--guide', productId, '--to', 'published'],
      {
        cwd: ROOT,
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
      },
    );
    const {
      spots: [first],
    } = await call<{ spots: Array<{ spotId: string }> }>('GET', `/guides/${productId}/spots`);
    guides.push({ size, productId, spotId: first!.spotId });
  }
  const samples = new Map<number, { readiness: number[]; publish: number[] }>(
    SIZES.map((size) => [size, { readiness: [], publish: [] }]),
  );
  // The sizes take turns, round after round: a burst of other work on the machine then falls on
  // both alike instead of on whichever size it happened to meet.
  for (let i = 0; i < RUNS + 1; i++) {
    for (const { size, productId, spotId } of guides) {
      const r = await timed(() => call('GET', `/guides/${productId}/readiness`));
      await call('PATCH', `/spots/${spotId}`, { description: `Edit ${i}` });
      const p = await timed(async () => {
        const answer = await call<{ published: boolean }>('POST', `/guides/${productId}/publish`);
        if (!answer.published) throw new Error('publish_changes made no release after an edit');
      });
      // The first round warms caches and JIT up; it is not counted.
      if (i > 0) {
        samples.get(size)!.readiness.push(r);
        samples.get(size)!.publish.push(p);
      }
    }
  }
  const figures = Object.fromEntries(
    [...samples].map(([size, s]) => [size, { readiness: median(s.readiness), publish: median(s.publish) }]),
  );
  const [small, large] = SIZES.map((s) => figures[s]!);
  const ratios = { readiness: large!.readiness / small!.readiness, publish: large!.publish / small!.publish };
  const line = (name: string, key: 'readiness' | 'publish') =>
    `  ${name.padEnd(20)} ${small![key].toFixed(0).padStart(6)} ms  ${large![key].toFixed(0).padStart(6)} ms  ${ratios[key].toFixed(2)}x ${ratios[key] <= SCALE_GOAL ? 'ok' : 'ABOVE'} (goal <= ${SCALE_GOAL}x)`;
  return {
    worstRatio: Math.max(ratios.readiness, ratios.publish),
    lines: [
      `Readiness and publishing, median of ${RUNS} calls (${SIZES.join(' vs ')} spots):`,
      line('get_guide_readiness', 'readiness'),
      line('publish_changes', 'publish'),
    ],
  };
}
