/**
 * Preloaded into a measured server by `bench/request-cost.ts --allocated` (with --expose-gc): the
 * bytes its heap allocated between two messages from the parent, { type: 'allocation-window' },
 * answered on the first with { type: 'allocation-window-open' } and on the second with
 * { type: 'allocated', bytes, collections }. Each edge is a scavenge
 * run at once, so every byte allocated in between is counted by a collection within the window:
 * the sum, over them, of the heap's size before each less its size after the one before. Objects
 * that died young count as much as those kept: that is what the young generation cycles through.
 * Exact while only scavenges run in the window; a full collection's sweeping, which frees memory
 * between collections, would make it read somewhat low (the count of collections is reported).
 */
import { GCProfiler, getHeapStatistics } from 'node:v8';

const scavenge = () => (globalThis as { gc?: (o: object) => void }).gc?.({ type: 'minor', execution: 'sync' });

let profiler: GCProfiler | undefined;
/** The heap's size as the window opened, just after its scavenge. */
let opened = 0;
process.on('message', (m: { type?: string }) => {
  if (m?.type !== 'allocation-window') return;
  if (profiler === undefined) {
    scavenge();
    opened = getHeapStatistics().used_heap_size;
    profiler = new GCProfiler();
    profiler.start();
    process.send?.({ type: 'allocation-window-open' });
    return;
  }
  scavenge();
  const { statistics } = profiler.stop();
  profiler = undefined;
  let bytes = 0;
  let after = opened;
  for (const { beforeGC, afterGC } of statistics) {
    bytes += beforeGC.heapStatistics.usedHeapSize - after;
    after = afterGC.heapStatistics.usedHeapSize;
  }
  process.send?.({ type: 'allocated', bytes, collections: statistics.length - 1 });
});
