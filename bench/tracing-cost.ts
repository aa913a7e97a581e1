/**
 * What tracing costs a request it does not record: REST `get_guide` on two app servers started
 * alike, one with tracing never configured, one exporting to an OTLP endpoint (a sink in this
 * process that receives nothing) with `OTEL_TRACES_SAMPLER_ARG=0`. A 3% goal is within a run's
 * noise when whole runs are compared, so the two take many turns (BENCH_TRACING_ROUNDS, 12 by
 * default, of BENCH_TRACING_ROUND_SECONDS, 3 by default), the order swapped every round (ABBA),
 * and the figure is the median of each round's ratio: a busy moment spoils one round's ratio, not
 * the total. Each turn starts with half a second of load it does not count (new connections, the
 * server's first requests after waiting idle), and the servers' CPU time per request is counted
 * over the measured seconds too: a ratio that the client's own share of the cores does not move.
 * Goal: the unsampled server at least 0.97 of the other's requests/s.
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
      const order = round % 2 === 1 ? measured : [...measured].reverse();
      const rps = new Map<string, number>();
      const cpuPerRequest = new Map<string, number>();
      for (const m of order) {
        const leadIn = round === 1 ? Math.max(settings.warmupSeconds, LEAD_IN_SECONDS) : LEAD_IN_SECONDS;
        const load = { connections: settings.connections, warmupSeconds: 0 };
        await runLoad(m.request, newTally(), { ...load, seconds: leadIn });
        const cpuBefore = processCpuMs(m.pid);
        const tally = newTally();
        await runLoad(m.request, tally, { ...load, seconds });
        const cpuAfter = processCpuMs(m.pid);
        addTally(m.tally, tally);
        rps.set(m.name, summarize(tally, undefined).requestsPerSecond);
        if (cpuBefore !== undefined && cpuAfter !== undefined && tally.completed > 0) {
          cpuPerRequest.set(m.name, (cpuAfter - cpuBefore) / tally.completed);
        }
      }
      const [plainRps, unsampledRps] = measured.map((m) => rps.get(m.name) ?? 0);
      if (plainRps! > 0) ratios.push(unsampledRps! / plainRps!);
      const [plainCpu, unsampledCpu] = measured.map((m) => cpuPerRequest.get(m.name));
      if (plainCpu !== undefined && unsampledCpu) cpuRatios.push(plainCpu / unsampledCpu);
    }
    const [plain, unsampled] = measured.map((m) => ({ ...m, result: summarize(m.tally, undefined) }));
    const ratio = median(ratios);
    const errors = measured.reduce((n, m) => n + m.tally.non2xx + m.tally.errors, 0);
    return {
      ratio,
      lines: [
        `Tracing that records nothing: REST get_guide, ${rounds} alternating rounds of ${seconds} s`,
        ...[plain!, unsampled!].map(
          (m) => `  ${m.name.padEnd(26)} ${m.result.requestsPerSecond.toFixed(0).padStart(7)} req/s`,
        ),
        `  median of the rounds' ratios ${ratio.toFixed(3)} (rounds ${Math.min(...ratios).toFixed(3)}-` +
          `${Math.max(...ratios).toFixed(3)}; goal >= ${UNSAMPLED_GOAL}) ${ratio >= UNSAMPLED_GOAL ? 'PASS' : 'BELOW'}` +
          (errors > 0 ? `, ${errors} errors or non-2xx answers` : ''),
        ...(cpuRatios.length > 0
          ? [
              `  server CPU per request, never configured / sampled at 0: median ${median(cpuRatios).toFixed(3)} ` +
                `(rounds ${Math.min(...cpuRatios).toFixed(3)}-${Math.max(...cpuRatios).toFixed(3)}; 10 ms steps of /proc)`,
            ]
          : []),
      ],
    };
  } finally {
    await Promise.all(apps.map((a) => a.stop()));
    sink.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}
