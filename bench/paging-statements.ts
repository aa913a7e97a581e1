/**
 * What a list_spots page costs the store under the paging fairness load (paging-scale.ts), counted
 * rather than timed: statements, pool connections taken and the revision reads among them, per page,
 * with 50 clients walking a guide's spots at once and the guide edited once a second. One process,
 * the test harness's server and the store's probe, so the counts are exact and the timings mean
 * nothing (the walkers share the server's event loop). Run alone, on either store:
 *   node bench/paging-statements.ts [postgres|sqlite]   (PAGING_SPOTS, 4000; BENCH_SECONDS, 8)
 */

import type { TestDialect } from '../test/helpers/dialects.ts';
import { startServer } from '../test/helpers/harness.ts';
import { jsonCaller } from './json-call.ts';
import { CLIENTS, seedPagingGuide } from './paging-scale.ts';

const dialect = (process.argv[2] ?? 'postgres') as TestDialect;
const spots = Number(process.env.PAGING_SPOTS ?? 4000);
const seconds = Number(process.env.BENCH_SECONDS ?? 8);

const h = await startServer({ dialect });
try {
  const key = h.alice.writeKey;
  const call = jsonCaller(h.origin, key);
  const big = await seedPagingGuide(call, spots);
  const counts = { statements: 0, revisionReads: 0, connections: 0, pages: 0, edits: 0 };
  const detach = h.store.probe.attach({
    statement(text) {
      counts.statements += 1;
      // The pool's query (guide-views.ts revisionOf) or the shared one on the aside connection.
      if (/^select "?id"?, "?(creator_id"?, "?)?revision"? from "?guides"? where "?id"? =/.test(text)) {
        counts.revisionReads += 1;
      }
      return () => {};
    },
    acquiring() {
      counts.connections += 1;
      return () => {};
    },
  });
  let stopping = false;
  const walker = async () => {
    let cursor: string | undefined;
    while (!stopping) {
      const query = cursor === undefined ? '' : `?cursor=${encodeURIComponent(cursor)}`;
      const page = await call<{ nextCursor?: string }>('GET', `/guides/${big.productId}/spots${query}`);
      counts.pages += 1;
      cursor = page.nextCursor;
    }
  };
  const walking = Promise.all(Array.from({ length: CLIENTS }, walker));
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await call('PATCH', `/spots/${big.spotId}`, { description: `Edit ${counts.edits++}` });
  }
  stopping = true;
  await walking;
  detach();
  const per = (n: number) => (n / counts.pages).toFixed(3);
  process.stdout.write(
    `${dialect}: ${counts.pages} pages of a ${spots}-spot guide by ${CLIENTS} walkers, ${counts.edits} edits ` +
      `(their statements included): per page ${per(counts.statements)} statements, ` +
      `${per(counts.revisionReads)} revision reads, ${per(counts.connections)} pool connections\n`,
  );
} finally {
  await h.close();
}
