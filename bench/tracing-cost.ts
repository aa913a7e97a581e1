/**
 * What tracing costs a request it does not record: REST `get_guide` on two app servers started
 * alike, one with tracing never configured, one exporting to an OTLP endpoint (a sink in this
 * process that receives nothing) with `OTEL_TRACES_SAMPLER_ARG=0`, measured in alternating rounds
 * so a busy moment hits both. Goal: the unsampled server at least 0.97 of the other's requests/s.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Child } from './ipc.ts';
import { type LoadSettings, newTally, runLoad, summarize } from './load.ts';
import { startOtlpSink } from './otlp-sink.ts';
import { seedFixtures } from './seed.ts';

export const UNSAMPLED_GOAL = 0.97;

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
      measured.push({ ...v, request, tally: newTally() });
    }
    const seconds = settings.seconds / settings.rounds;
    for (let round = 1; round <= settings.rounds; round++) {
      for (const m of measured) {
        const warmupSeconds = round === 1 ? settings.warmupSeconds : 0;
        await runLoad(m.request, m.tally, { seconds, connections: settings.connections, warmupSeconds });
      }
    }
    const [plain, unsampled] = measured.map((m) => ({ ...m, result: summarize(m.tally, undefined) }));
    const ratio = unsampled!.result.requestsPerSecond / plain!.result.requestsPerSecond;
    const errors = measured.reduce((n, m) => n + m.tally.non2xx + m.tally.errors, 0);
    return {
      ratio,
      lines: [
        `Tracing that records nothing: REST get_guide, ${settings.rounds} alternating rounds`,
        ...[plain!, unsampled!].map(
          (m) => `  ${m.name.padEnd(26)} ${m.result.requestsPerSecond.toFixed(0).padStart(7)} req/s`,
        ),
        `  ratio ${ratio.toFixed(3)} (goal >= ${UNSAMPLED_GOAL}) ${ratio >= UNSAMPLED_GOAL ? 'PASS' : 'BELOW'}` +
          (errors > 0 ? `, ${errors} errors or non-2xx answers` : ''),
      ],
    };
  } finally {
    await Promise.all(apps.map((a) => a.stop()));
    sink.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}
