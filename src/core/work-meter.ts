/**
 * Work this process does that metrics count: cache look-ups, photo processing, link checks. The
 * code doing the work reports here and knows nothing of Prometheus; metrics, when they are on,
 * attach a sink. With none attached a report is a length check.
 */

/** The caches whose hits are counted. */
export type CacheName = 'guide_views' | 'guide_revisions' | 'auth_keys';

/** How one photo's processing ended: its files made, refused (not an accepted image, too big…), or failed. */
export type UploadOutcome = 'processed' | 'refused' | 'failed';

export interface WorkSink {
  cache(name: CacheName, hit: boolean): void;
  /** A photo's processing started (its compressed size in bytes). */
  uploadStarted(bytes: number): void;
  uploadEnded(outcome: UploadOutcome, seconds: number): void;
  linkCheckStarted(): void;
  /** `status`: the check's LinkStatus (ok, redirected, broken, blocked, error). */
  linkCheckEnded(status: string, seconds: number): void;
  /** A rate limit was counted in this instance's memory because Redis did not answer. */
  rateLimitFallback(): void;
}

let sinks: WorkSink[] = [];

/** Starts telling `sink`; the returned function stops. */
export function attachWorkSink(sink: WorkSink): () => void {
  sinks = [...sinks, sink];
  return () => {
    sinks = sinks.filter((s) => s !== sink);
  };
}

export function countCache(name: CacheName, { hit }: { hit: boolean }): void {
  if (sinks.length === 0) return;
  for (const sink of sinks) sink.cache(name, hit);
}

export function countRateLimitFallback(): void {
  for (const sink of sinks) sink.rateLimitFallback();
}

/**
 * Runs one piece of metered work: `started` before, `ended` with the seconds it took (also when it
 * throws). Without a sink it is just `run()`.
 */
export async function metered<T>(
  run: () => Promise<T>,
  started: (sink: WorkSink) => void,
  ended: (sink: WorkSink, seconds: number, result: { value?: T; error?: unknown }) => void,
): Promise<T> {
  if (sinks.length === 0) return run();
  const watching = sinks;
  for (const sink of watching) started(sink);
  const start = performance.now();
  const seconds = () => (performance.now() - start) / 1000;
  try {
    const value = await run();
    for (const sink of watching) ended(sink, seconds(), { value });
    return value;
  } catch (error) {
    for (const sink of watching) ended(sink, seconds(), { error });
    throw error;
  }
}
