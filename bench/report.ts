import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import type { LoadSettings, Measurement } from './load.ts';
import { BUSY_THRESHOLD_CORES } from './machine.ts';
import type { Target } from './targets.ts';

export interface Row {
  name: string;
  baseline: boolean;
  /** The raw target this row's ratio divides by: its own name for a baseline. */
  against: string;
  goal: number | undefined;
  ratio: number;
  verdict: 'BASELINE' | 'PASS' | 'BELOW' | 'n/a';
  measurement: Measurement;
}

/** A target's row: its requests/s as a ratio of its raw baseline's (rawRps), judged against its goal. */
export function judge(target: Target, m: Measurement, rawRps: number): Row {
  const ratio = rawRps > 0 ? m.requestsPerSecond / rawRps : 0;
  const against = target.baseline ? target.name : target.against;
  const goal = target.baseline ? undefined : target.goal;
  const verdict = target.baseline ? 'BASELINE' : goal === undefined ? 'n/a' : ratio >= goal ? 'PASS' : 'BELOW';
  return { name: target.name, baseline: target.baseline === true, against, goal, ratio, verdict, measurement: m };
}

export const hasErrors = (row: Row): boolean =>
  row.measurement.non2xx + row.measurement.errors + row.measurement.timeouts > 0;

/** The table printed at the end of a run. */
export function formatTable(rows: Row[]): string {
  const header = [
    'target',
    'req/s',
    'p50 ms',
    'p99 ms',
    'ratio',
    'ratio of',
    'goal',
    'verdict',
    'non-2xx',
    'errors',
    'other cpu',
  ];
  const lines = rows.map((r) => {
    const m = r.measurement;
    return [
      r.name,
      Math.round(m.requestsPerSecond).toString(),
      m.p50Ms.toFixed(2),
      m.p99Ms.toFixed(2),
      r.ratio.toFixed(3),
      r.baseline ? '-' : r.against,
      r.goal === undefined ? '-' : `≥ ${r.goal}`,
      r.verdict,
      m.non2xx.toString(),
      (m.errors + m.timeouts).toString(),
      m.cpu === undefined ? '?' : m.cpu.otherCores.toFixed(2),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const fmt = (cells: string[]) =>
    cells.map((c, i) => (i === 0 || i === 5 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
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
      baseline: r.baseline,
      ratioOf: r.against,
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
