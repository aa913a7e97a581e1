import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import type { LoadSettings, Measurement } from './load.ts';
import { BUSY_THRESHOLD_CORES } from './machine.ts';

export interface Row {
  name: string;
  baseline: boolean;
  goal: number | undefined;
  ratio: number;
  verdict: 'BASELINE' | 'PASS' | 'BELOW' | 'n/a';
  measurement: Measurement;
}

export function judge(name: string, baseline: boolean, goal: number | undefined, m: Measurement, rawRps: number): Row {
  const ratio = rawRps > 0 ? m.requestsPerSecond / rawRps : 0;
  const verdict = baseline ? 'BASELINE' : goal === undefined ? 'n/a' : ratio >= goal ? 'PASS' : 'BELOW';
  return { name, baseline, goal, ratio, verdict, measurement: m };
}

export const hasErrors = (row: Row): boolean =>
  row.measurement.non2xx + row.measurement.errors + row.measurement.timeouts > 0;

/** The table printed at the end of a run. */
export function formatTable(rows: Row[]): string {
  const header = ['target', 'req/s', 'p50 ms', 'p99 ms', 'ratio', 'goal', 'verdict', 'non-2xx', 'errors', 'other cpu'];
  const lines = rows.map((r) => {
    const m = r.measurement;
    return [
      r.name,
      Math.round(m.requestsPerSecond).toString(),
      m.p50Ms.toFixed(2),
      m.p99Ms.toFixed(2),
      r.ratio.toFixed(3),
      r.goal === undefined ? '-' : `≥ ${r.goal}`,
      r.verdict,
      m.non2xx.toString(),
      (m.errors + m.timeouts).toString(),
      m.cpu === undefined ? '?' : m.cpu.otherCores.toFixed(2),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const fmt = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [fmt(header), widths.map((w) => '-'.repeat(w)).join('  '), ...lines.map(fmt)].join('\n');
}

/** What the reader must know besides the table: errors, and whether other work skewed the run. */
export function formatNotes(rows: Row[]): string[] {
  const notes: string[] = [];
  const withErrors = rows.filter(hasErrors);
  for (const r of withErrors) {
    const m = r.measurement;
    notes.push(
      `ERRORS ${r.name}: ${m.non2xx} non-2xx, ${m.errors} errors, ${m.timeouts} timeouts; ` +
        `status codes ${JSON.stringify(m.statusCodes)}`,
    );
  }
  notes.push(
    withErrors.length > 0
      ? 'THIS RUN HAD ERRORS: its figures are not comparable.'
      : 'No errors and no non-2xx answers.',
  );
  const disturbed = rows.filter((r) => (r.measurement.cpu?.otherCores ?? 0) > BUSY_THRESHOLD_CORES);
  if (disturbed.length > 0) {
    notes.push(
      `BUSY MACHINE: other processes used more than ${BUSY_THRESHOLD_CORES} core during ` +
        `${disturbed.map((r) => r.name).join(', ')} (column "other cpu"): the ratios are skewed; ` +
        'run again on a quiet machine.',
    );
  }
  return notes;
}

/** bench/results/latest.json: the settings, the machine and every row, for comparing runs. */
export function writeResults(rows: Row[], settings: LoadSettings, notes: Record<string, unknown>): string {
  const dir = new URL('./results/', import.meta.url);
  mkdirSync(dir, { recursive: true });
  const file = new URL('latest.json', dir);
  const json = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: availableParallelism(),
    cpuModel: cpus()[0]?.model ?? 'unknown',
    settings,
    ...notes,
    hadErrors: rows.some(hasErrors),
    targets: rows.map((r) => ({
      name: r.name,
      requestsPerSecond: Math.round(r.measurement.requestsPerSecond),
      p50Ms: r.measurement.p50Ms,
      p99Ms: r.measurement.p99Ms,
      ratioToRaw: Number(r.ratio.toFixed(4)),
      goal: r.goal ?? null,
      verdict: r.verdict,
      completed: r.measurement.completed,
      seconds: r.measurement.seconds,
      non2xx: r.measurement.non2xx,
      errors: r.measurement.errors,
      timeouts: r.measurement.timeouts,
      statusCodes: r.measurement.statusCodes,
      benchCores: r.measurement.cpu?.benchCores ?? null,
      otherCores: r.measurement.cpu?.otherCores ?? null,
    })),
  };
  writeFileSync(file, `${JSON.stringify(json, null, 2)}\n`);
  return file.pathname;
}
