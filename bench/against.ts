/**
 * `npm run bench -- --against <commit>`: the table's rows on this checkout and on another commit, side
 * by side in one run, so that a regression shows in the run that causes it. The other commit gets a
 * git worktree of its own (with `npm ci`), kept for the next run; its own bench/app-server.ts
 * starts its app with the same settings as this one's, each in a child process, and both take
 * turns with the raw server round after round. Each app is seeded and checked against its own
 * answers; the raw server answers this checkout's bytes. A target whose fixture the other commit
 * cannot make (an operation it lacks) is reported as such.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchContext, FixtureName } from './context.ts';
import type { Child } from './ipc.ts';
import { type LoadSettings, type Measurement, newTally, probe, runLoad, summarize } from './load.ts';
import { CpuTally } from './machine.ts';
import { seedFixtures } from './seed.ts';
import type { Target } from './targets.ts';

const log = (line: string) => process.stderr.write(`${line}\n`);
const ROOT = join(import.meta.dirname, '..');

/** The commit `--against <commit>` (or `--against=<commit>`) names on the command line, if any. */
export function againstCommit(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg.startsWith('--against=')) return arg.slice('--against='.length);
    if (arg === '--against') {
      const commit = argv[i + 1];
      if (!commit || commit.startsWith('-')) throw new Error('--against needs a commit');
      return commit;
    }
  }
  return undefined;
}

const git = (...args: string[]) =>
  execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();

/**
 * A checkout of `commit` with its dependencies installed: a detached git worktree in the system's
 * temporary folder, made (and `npm ci` run) on first use, reused by later runs against the same
 * commit. `git worktree remove <path>` removes it.
 */
export function checkoutOf(commit: string): { root: string; sha: string } {
  const sha = git('rev-parse', '--verify', `${commit}^{commit}`);
  const root = join(tmpdir(), `creator-api-against-${sha.slice(0, 12)}`);
  if (!existsSync(join(root, 'package.json'))) {
    log(`against ${commit}: making a worktree of ${sha.slice(0, 12)} at ${root}`);
    git('worktree', 'add', '--quiet', '--detach', root, sha);
  }
  if (!existsSync(join(root, 'node_modules', '.package-lock.json'))) {
    log(`against ${commit}: npm ci in ${root}`);
    execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  if (!existsSync(join(root, 'bench', 'app-server.ts'))) {
    throw new Error(`${commit} has no bench/app-server.ts: it predates the bench this compares with`);
  }
  return { root, sha };
}

/** An app under test: which checkout, its server, and the fixtures made through its API. */
interface Side {
  label: string;
  app: Child;
  ctx: BenchContext;
}

/** Starts an app server as the bench starts its own; `root`: another checkout's. */
type StartApp = (dataDir: string, env?: Record<string, string>, root?: string) => Promise<Child>;

/** The fixtures `names` on one app, each on its own: one the app cannot make is left out, with why. */
async function seedEach(
  app: Child,
  names: ReadonlySet<FixtureName>,
  dataDir: string,
  root: string,
): Promise<{ fixtures: BenchContext['fixtures']; missing: Map<FixtureName, string> }> {
  const fixtures: BenchContext['fixtures'] = {};
  const missing = new Map<FixtureName, string>();
  for (const name of names) {
    try {
      Object.assign(fixtures, await seedFixtures(app.ready.origin, app.ready.key!, new Set([name]), dataDir, root));
    } catch (err) {
      missing.set(name, (err as Error).message.slice(0, 160));
    }
  }
  return { fixtures, missing };
}

interface Result {
  lines: string[];
  hadErrors: boolean;
}

/**
 * The chosen targets on both checkouts, round after round, each app target right after the other's
 * (which goes first alternates by round), beside the raw server (`raw`, answering this checkout's
 * bytes at the fixtures' paths: `thisCtx` names it).
 */
export async function benchAgainst(opts: {
  commit: string;
  chosen: Target[];
  settings: LoadSettings;
  startApp: StartApp;
  thisSide: { app: Child; ctx: BenchContext };
  raw: Child;
  children: Child[];
}): Promise<Result> {
  const { commit, chosen, settings, thisSide, raw, children } = opts;
  const { root, sha } = checkoutOf(commit);
  const dataDir = mkdtempSync(join(tmpdir(), 'creator-api-bench-against-'));
  try {
    const other = await opts.startApp(dataDir, {}, root);
    children.push(other);
    const needed = new Set(chosen.map((t) => t.fixture));
    const { fixtures, missing } = await seedEach(other, needed, dataDir, root);
    const sides: Side[] = [
      { label: 'this checkout', ...thisSide },
      {
        label: sha.slice(0, 12),
        app: other,
        ctx: { ...thisSide.ctx, appOrigin: other.ready.origin, key: other.ready.key!, fixtures },
      },
    ];
    const runnable = chosen.filter((t) => !missing.has(t.fixture));
    // The other commit may answer in an older shape: measured all the same when it answers 200, with a note.
    const notes: string[] = [];
    for (const t of runnable.filter((x) => !x.baseline)) {
      const answer = await probe(t.request(sides[1]!.ctx));
      if (answer.status !== 200) throw new Error(`${t.name} on ${sides[1]!.label}: answered ${answer.status}`);
      const problems = t.check(answer, sides[1]!.ctx);
      if (problems.length > 0) notes.push(`${t.name}: ${sides[1]!.label} answers otherwise (${problems.join('; ')})`);
    }
    const pids = [process.pid, raw.process.pid!, ...sides.map((s) => s.app.process.pid!)];
    const runs = runnable.flatMap((target) =>
      (target.baseline ? [sides[0]!] : sides).map((side) => ({
        target,
        side,
        tally: newTally(),
        cpu: new CpuTally(),
      })),
    );
    const seconds = settings.seconds / settings.rounds;
    for (let round = 1; round <= settings.rounds; round++) {
      const warmupSeconds = round === 1 ? settings.warmupSeconds : 0;
      log(`against ${commit}, round ${round}/${settings.rounds}`);
      // The two apps' runs of a target come one after the other; which goes first alternates.
      const ordered = round % 2 === 1 ? runs : [...runs].reverse();
      for (const r of ordered) {
        const opts = { seconds, connections: settings.connections, warmupSeconds };
        await r.cpu.during(pids, () => runLoad(r.target.request(r.side.ctx), r.tally, opts));
      }
    }
    const measured = runs.map((r) => ({ ...r, m: summarize(r.tally, r.cpu.share()) }));
    return {
      lines: table(measured, sides, missing, chosen, commit),
      hadErrors: measured.some((r) => errorsOf(r.m) > 0),
    };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const errorsOf = (m: Measurement) => m.non2xx + m.errors + m.timeouts;

function table(
  measured: Array<{ target: Target; side: Side; m: Measurement }>,
  sides: Side[],
  missing: Map<FixtureName, string>,
  chosen: Target[],
  commit: string,
): string[] {
  const rps = (target: Target, side: Side) =>
    measured.find((r) => r.target === target && r.side === side)?.m.requestsPerSecond ?? 0;
  const [mine, theirs] = sides as [Side, Side];
  const header = ['target', 'this req/s', `${theirs.label} req/s`, 'this/that', 'this/raw', 'that/raw', 'errors'];
  const rows: string[][] = [];
  for (const target of chosen) {
    if (target.baseline) continue;
    if (missing.has(target.fixture)) {
      rows.push([target.name, '-', `cannot set up: ${missing.get(target.fixture)}`, '', '', '', '']);
      continue;
    }
    const raw = chosen.find((t) => t.name === target.against)!;
    const rawRps = rps(raw, mine);
    const a = rps(target, mine);
    const b = rps(target, theirs);
    const errors = measured.filter((r) => r.target === target).reduce((n, r) => n + errorsOf(r.m), 0);
    rows.push([
      target.name,
      a.toFixed(0),
      b.toFixed(0),
      b > 0 ? (a / b).toFixed(3) : '-',
      (a / rawRps).toFixed(3),
      (b / rawRps).toFixed(3),
      String(errors),
    ]);
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const fmt = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)));
  const busiest = Math.max(...measured.map((r) => r.m.cpu?.otherCores ?? 0));
  return [
    `Against ${commit} (${theirs.label}): the same targets on both checkouts in alternating rounds; raw answers this checkout's bytes`,
    '',
    fmt(header).join('  '),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...rows.map((r) => fmt(r).join('  ')),
    '',
    `Other processes used up to ${busiest.toFixed(2)} cores during a run` +
      (busiest > 0.25 ? ': BUSY MACHINE, the ratios are skewed.' : '.'),
  ];
}
