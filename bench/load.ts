import { createRequire } from 'node:module';
import { createHistogram, type RecordableHistogram } from 'node:perf_hooks';
import type { Answer, TargetRequest } from './context.ts';
import type { CpuShare } from './machine.ts';

/** The part of autocannon's result this bench reads. */
interface AutocannonResult {
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodeStats: Record<string, { count: number }>;
  requests: { total: number };
}

interface AutocannonOptions {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Requests each connection sends in turn, each shaped by its setupRequest. */
  requests?: unknown[];
  connections: number;
  duration: number;
  warmup?: { connections: number; duration: number };
}

/** autocannon's run: a promise of the result that is also an emitter of per-response events. */
type AutocannonRun = Promise<AutocannonResult> & {
  on(event: 'response', listener: (client: unknown, status: number, bytes: number, ms: number) => void): void;
};
const require = createRequire(import.meta.url);
const autocannon = require('autocannon') as (opts: AutocannonOptions) => AutocannonRun;

export interface LoadSettings {
  /** Measured seconds per target, over all rounds. */
  seconds: number;
  connections: number;
  /** Uncounted warm-up per target, in the first round only. */
  warmupSeconds: number;
  /** The targets take turns this many times, seconds/rounds each, so a disturbance hits all alike. */
  rounds: number;
}

/** One target's counts, added up over its rounds. */
export interface Tally {
  completed: number;
  seconds: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  /** autocannon's own histogram has whole-millisecond buckets; this one keeps microseconds. */
  latencyUs: RecordableHistogram;
}

export interface Measurement extends Omit<Tally, 'latencyUs'> {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Cores used by the bench and by other processes over the runs (warm-up included), when known. */
  cpu?: CpuShare | undefined;
}

export function newTally(): Tally {
  return { completed: 0, seconds: 0, non2xx: 0, errors: 0, timeouts: 0, statusCodes: {}, latencyUs: createHistogram() };
}

/** One bounded autocannon run (after an optional warm-up it does not count), added to the tally. */
export function runLoad(
  request: TargetRequest,
  tally: Tally,
  opts: { seconds: number; connections: number; warmupSeconds: number },
): Promise<void> {
  return runAutocannon(
    {
      url: request.url,
      method: request.method,
      headers: request.headers,
      ...(request.body !== undefined ? { body: request.body } : {}),
    },
    tally,
    opts,
  );
}

/**
 * A run of what autocannon options describe (one request, or `requests` in turn), for a bounded
 * time after an optional warm-up it does not count, added to the tally.
 */
export async function runAutocannon(
  what: Pick<AutocannonOptions, 'url'> & Partial<AutocannonOptions>,
  tally: Tally,
  opts: { seconds: number; connections: number; warmupSeconds: number },
): Promise<void> {
  const run = autocannon({
    ...what,
    connections: opts.connections,
    duration: opts.seconds,
    ...(opts.warmupSeconds > 0 ? { warmup: { connections: opts.connections, duration: opts.warmupSeconds } } : {}),
  });
  run.on('response', (_client, _status, _bytes, ms) => tally.latencyUs.record(Math.max(1, Math.round(ms * 1000))));
  const result = await run;
  tally.completed += result.requests.total;
  tally.seconds += result.duration;
  tally.non2xx += result.non2xx;
  tally.errors += result.errors;
  tally.timeouts += result.timeouts;
  for (const [code, stat] of Object.entries(result.statusCodeStats)) {
    tally.statusCodes[code] = (tally.statusCodes[code] ?? 0) + stat.count;
  }
}

export function summarize(tally: Tally, cpu: CpuShare | undefined): Measurement {
  const { latencyUs, ...counts } = tally;
  const ms = (p: number) => (latencyUs.count > 0 ? latencyUs.percentile(p) / 1000 : 0);
  return {
    ...counts,
    requestsPerSecond: tally.seconds > 0 ? tally.completed / tally.seconds : 0,
    p50Ms: ms(50),
    p99Ms: ms(99),
    cpu,
  };
}

/** One request as a client would send it, for the checks before and after the load. */
export async function probe(request: TargetRequest): Promise<Answer> {
  const res = await fetch(request.url, {
    method: request.method,
    headers: request.headers,
    ...(request.body !== undefined ? { body: request.body } : {}),
  });
  return {
    status: res.status,
    contentType: res.headers.get('content-type') ?? '',
    body: Buffer.from(await res.arrayBuffer()),
  };
}
