/**
 * What tracing costs a request it does not record: REST `get_guide` on two app servers started
 * alike, one with tracing never configured, one exporting to an OTLP endpoint (a sink in this
 * process that receives nothing) with `OTEL_TRACES_SAMPLER_ARG=0`. Both servers are loaded at once,
 * each by its own connections, so whatever else the machine does falls on both in the same seconds:
 * BENCH_TRACING_ROUNDS (12 by default) of BENCH_TRACING_ROUND_SECONDS (3 by default), each after
 * half a second of load it does not count. Judged: the CPU time each server spends a request over
 * the same seconds (from /proc, every thread), never configured over sampled at 0, median of the
 * rounds: what "as cheap as" asks. Their req/s are printed beside it and not judged: with two
 * servers and the client on two cores, the scheduler leaves one process a core of its own for
 * seconds at a time, and a round's req/s ratio swung from 0.75 to 1.49 on a quiet machine while
 * its CPU ratio stayed within 0.88–1.18 (docs/decisions/performance.md, "Unsampled tracing").
 * Where /proc cannot be read, the req/s ratio is judged instead.
 * Goal: the unsampled server serves at least 0.97 of the other's requests per CPU second.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Child } from './ipc.ts';
import { median } from './json-call.ts';
import { type LoadSettings, newTally, runLoad, summarize, type Tally } from './load.ts';
import { processCpuMs } from './machine.ts';
import { startOtlpSink } from './otlp-sink.ts';
import { seedFixtures } from './seed.ts';

export const UNSAMPLED_GOAL = 0.97;

/** A whole number of rounds, or seconds a round, from the environment; `fallback` when unset. */
function setting(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  const n = raw === undefined || raw.trim() === '' ? fallback : Number(raw);
  if (!Number.isFinite(n) || n < min) throw new Error(`${name}=${raw}: a number, ${min} or more`);
  return n;
}

/** Unmeasured load at the start of every turn. */
const LEAD_IN_SECONDS = 0.5;

/** Adds one round's counts to a target's running tally. */
function addTally(into: Tally, round: Tally): void {
  into.completed += round.completed;
  into.seconds += round.seconds;
  into.non2xx += round.non2xx;
  into.errors += round.errors;
  into.timeouts += round.timeouts;
  for (const [code, n] of Object.entries(round.statusCodes)) into.statusCodes[code] = (into.statusCodes[code] ?? 0) + n;
  into.latencyUs.add(round.latencyUs);
}

export interface TracingCost {
  ratio: number;
  lines: string[];
}

export async function benchTracingCost(
  startApp: (dataDir: string, env: Record<string, string>) => Promise<Child>,
  settings: LoadSettings,
): Promise<TracingCost> {
  const sink = await startOtlpSink();
  const endpoint = sink.endpoint;
  const dirs: string[] = [];
  const apps: Child[] = [];
  try {
    const variants: Array<{ name: string; env: Record<string, string> }> = [
      { name: 'tracing never configured', env: {} },
      {
        name: 'tracing on, sampled at 0',
        env: { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_TRACES_SAMPLER_ARG: '0' },
      },
    ];
    const measured = [];
    for (const v of variants) {
      const dir = mkdtempSync(join(tmpdir(), 'creator-api-bench-tracing-'));
      dirs.push(dir);
      const app = await startApp(dir, v.env);
      apps.push(app);
      const { guide } = await seedFixtures(app.ready.origin, app.ready.key!, new Set(['guide']), dir);
      const request = {
        url: `${app.ready.origin}${guide!.path}`,
        method: 'GET' as const,
        headers: { authorization: `Bearer ${app.ready.key}` },
      };
      measured.push({ ...v, request, pid: app.process.pid!, tally: newTally() });
    }
    const seconds = setting('BENCH_TRACING_ROUND_SECONDS', 3, 0.5);
    const rounds = Math.round(setting('BENCH_TRACING_ROUNDS', 12, 2));
    const ratios: number[] = [];
    const cpuRatios: number[] = [];
    for (let round = 1; round <= rounds; round++) {
      const leadIn = round === 1 ? Math.max(settings.warmupSeconds, LEAD_IN_SECONDS) : LEAD_IN_SECONDS;
      const load = { connections: settings.connections, warmupSeconds: 0 };
      // Both servers under load at once: whatever else the machine does in these seconds falls on
      // both alike, and each gets its share of the cores, so their req/s differ by their cost.
      await Promise.all(measured.map((m) => runLoad(m.request, newTally(), { ...load, seconds: leadIn })));
      const cpuBefore = measured.map((m) => processCpuMs(m.pid));
      const tallies = measured.map(() => newTally());
      await Promise.all(measured.map((m, i) => runLoad(m.request, tallies[i]!, { ...load, seconds })));
      const cpuAfter = measured.map((m) => processCpuMs(m.pid));
      const rps = tallies.map((t) => summarize(t, undefined).requestsPerSecond);
      const cpuPerRequest = tallies.map((t, i) => {
        const before = cpuBefore[i];
        const after = cpuAfter[i];
        return before !== undefined && after !== undefined && t.completed > 0
          ? (after - before) / t.completed
          : undefined;
      });
      for (const [i, m] of measured.entries()) addTally(m.tally, tallies[i]!);
      const [plainRps, unsampledRps] = rps;
      if (plainRps! > 0) ratios.push(unsampledRps! / plainRps!);
      const [plainCpu, unsampledCpu] = cpuPerRequest;
      if (plainCpu !== undefined && unsampledCpu) cpuRatios.push(plainCpu / unsampledCpu);
    }
    const [plain, unsampled] = measured.map((m) => ({ ...m, result: summarize(m.tally, undefined) }));
    const rpsRatio = median(ratios);
    const cpuRatio = cpuRatios.length > 0 ? median(cpuRatios) : undefined;
    const ratio = cpuRatio ?? rpsRatio;
    const verdict = `(goal >= ${UNSAMPLED_GOAL}) ${ratio >= UNSAMPLED_GOAL ? 'PASS' : 'BELOW'}`;
    const range = (rs: number[]) => `rounds ${Math.min(...rs).toFixed(3)}-${Math.max(...rs).toFixed(3)}`;
    const errors = measured.reduce((n, m) => n + m.tally.non2xx + m.tally.errors, 0);
    return {
      ratio,
      lines: [
        `Tracing that records nothing: REST get_guide, ${rounds} rounds of ${seconds} s, both servers under load at once`,
        ...[plain!, unsampled!].map(
          (m) => `  ${m.name.padEnd(26)} ${m.result.requestsPerSecond.toFixed(0).padStart(7)} req/s`,
        ),
        ...(cpuRatio !== undefined
          ? [
              `  server CPU a request, never configured / sampled at 0: median ${cpuRatio.toFixed(3)} ` +
                `(${range(cpuRatios)}; 10 ms steps of /proc) ${verdict}`,
            ]
          : []),
        `  req/s, sampled at 0 / never configured: median ${rpsRatio.toFixed(3)} (${range(ratios)}) ` +
          (cpuRatio !== undefined ? '(not judged: the scheduler moves it)' : verdict) +
          (errors > 0 ? `, ${errors} errors or non-2xx answers` : ''),
        `  each round's req/s ratio, in order: ${ratios.map((r) => r.toFixed(2)).join(' ')}`,
      ],
    };
  } finally {
    await Promise.all(apps.map((a) => a.stop()));
    sink.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}
