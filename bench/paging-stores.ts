/**
 * The paging fairness load on both stores, servers started alike: 50 clients walking every page of
 * list_spots on a 4,000-spot guide while another creator's get_guide is timed (paging-scale.ts).
 * Goals: PostgreSQL's pages a second at least 0.75 of SQLite's, and the other creator's p99 under
 * 50 ms on each. The stores run one after the other, each on a guide made on it.
 */
import type { Child } from './ipc.ts';
import { jsonCaller } from './json-call.ts';
import {
  CLIENTS,
  type Fairness,
  P99_GOAL_MS,
  pagingFairness,
  STORES_PAGING_GOAL,
  seedPagingGuide,
} from './paging-scale.ts';

export interface PagingStores {
  ratio: number;
  worstP99Ms: number;
  lines: string[];
}

export async function benchPagingStores(lite: Child, post: Child): Promise<PagingStores> {
  const measured: Array<{ name: string; f: Fairness }> = [];
  for (const [name, app] of [
    ['SQLite', lite],
    ['PostgreSQL', post],
  ] as const) {
    const { origin, key, otherKey } = app.ready;
    const big = await seedPagingGuide(jsonCaller(origin, key!), 4000);
    measured.push({ name, f: await pagingFairness(origin, key!, otherKey!, big, app.process.pid) });
  }
  const [sqlite, postgres] = measured as [(typeof measured)[0], (typeof measured)[0]];
  const ratio = postgres.f.pagesPerSecond / sqlite.f.pagesPerSecond;
  const worstP99Ms = Math.max(sqlite.f.p99Ms, postgres.f.p99Ms);
  return {
    ratio,
    worstP99Ms,
    lines: [
      `Paging fairness on both stores: ${CLIENTS} clients walking a 4,000-spot guide, another creator's get_guide timed:`,
      ...measured.flatMap(({ name, f }) => [`  ${name}:`, `  ${f.line}`]),
      `  PostgreSQL's pages/s ${ratio.toFixed(2)} of SQLite's ${ratio >= STORES_PAGING_GOAL ? 'ok' : 'BELOW'} ` +
        `(goal >= ${STORES_PAGING_GOAL}); worst p99 ${worstP99Ms.toFixed(1)} ms ` +
        `${worstP99Ms < P99_GOAL_MS ? 'ok' : 'ABOVE'} (goal < ${P99_GOAL_MS} ms on both)`,
    ],
  };
}
