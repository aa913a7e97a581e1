/**
 * npm run bench: throughput of the Creator API against raw node:http baselines, in one run: each app
 * target beside the raw server answering the same bytes (see targets.ts).
 *
 * Layout (the same for every target): the app under test and the raw baseline server each run in
 * a child process of their own; autocannon (the load generator) runs here in the parent. So the
 * client never shares an event loop with a server, and on a 2-core machine the server being
 * measured gets one core and the client the other; the idle server waits in its own process.
 * Only ratios measured in one run mean anything; absolute figures move from run to run.
 *
 * Settings (environment):
 *   BENCH_SECONDS         measured seconds per target (default 8)
 *   BENCH_CONNECTIONS     concurrent connections (default 10)
 *   BENCH_WARMUP_SECONDS  uncounted warm-up per target, same connections (default 2; 0 disables)
 *   BENCH_ROUNDS          the targets take turns this many times, BENCH_SECONDS/rounds each (default 4),
 *                         so a burst of other work on the machine hits every target alike
 *   BENCH_ONLY            comma-separated parts of target names to run (with the raw baseline each needs);
 *                         `upload` names the photo upload benches (bench/media-upload.ts, again with the files
 *                         in a local S3-compatible bucket, then ten hostile 16-bit uploads,
 *                         bench/hostile-uploads.ts), `publish` the
 *                         readiness and publish_changes scaling bench (bench/publishing-scale.ts), `paging`
 *                         the paging bench (bench/paging-scale.ts: walks of a 2,000- and a 4,000-spot guide,
 *                         then another creator's get_guide beside 50 walkers; then that fairness load again
 *                         on fresh SQLite and PostgreSQL servers, bench/paging-stores.ts; `paging-stores` runs only
 *                         that last part), `mixed` the mixed load on SQLite
 *                         and PostgreSQL (bench/mixed-load.ts), `tracing` REST get_guide with tracing sampled
 *                         at 0 against tracing never configured (bench/tracing-cost.ts: BENCH_TRACING_ROUNDS
 *                         rounds, 12 by default, of BENCH_TRACING_ROUND_SECONDS, 3 by default, each after half a
 *                         second it does not count, both servers loaded at once; judged by the median of the rounds' CPU a
 *                         request), `history` three
 *                         writes with history against the same writes without it (bench/history-cost.ts:
 *                         BENCH_HISTORY_ROUNDS rounds, 32 by default, of BENCH_HISTORY_ROUND_SECONDS, 0.5 by
 *                         default, the servers taking turns to go first),
 *                         `releases` restore_release on a 2,000- and a 4,000-spot guide and the sizes of
 *                         list_changes and get_release with 10,000 changes (bench/releases-scale.ts), `import` import_spots'
 *                         readers on a 2 MB file of each worst shape, CPU time and peak memory against a set
 *                         bound (bench/file-readers.ts);
 *                         they run last. `startup` runs first, alone:
 *                         the app's import CPU and `npm start`'s time to its banner against a bare
 *                         Fastify server's (bench/startup.ts)
 *   BENCH_STARTUP_RUNS    runs of each startup measurement, medians reported (default 5)
 *   BENCH_MIXED_SECONDS   measured seconds per store of the mixed load (default 16, in BENCH_ROUNDS rounds)
 *   BENCH_MIXED_CONNECTIONS  its concurrent connections (default 50)
 *   BENCH_DATABASE_URL    the PostgreSQL database of the mixed load (default TEST_DATABASE_URL, else
 *                         postgres://postgres@127.0.0.1:5432/test); it runs in a schema of its own
 *   BENCH_STRICT          1: exit non-zero when a target is BELOW its goal (errors always do)
 *
 * `npm run bench -- --against <commit>` runs the table's targets (BENCH_ONLY still chooses) on this
 * checkout and on that commit side by side, and prints both and their ratio (bench/against.ts);
 * the separate benches (startup, uploads, paging…) do not run then.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshPostgresSchema } from '../test/helpers/dialects.ts';
import { againstCommit, benchAgainst } from './against.ts';
import { type BenchContext, fixtureOf } from './context.ts';
import { benchFileReaders } from './file-readers.ts';
import { benchHistoryCost, HISTORY_COST_GOAL } from './history-cost.ts';
import { benchHostileUploads, SETTLE_MARGIN_MB } from './hostile-uploads.ts';
import { BENCH_APP_ENV, type Child, npmStartEnv, startChild } from './ipc.ts';
import { type LoadSettings, type Measurement, newTally, probe, runLoad, summarize } from './load.ts';
import { CpuTally } from './machine.ts';
import {
  benchUploads,
  UPLOAD_RATIO_GOAL,
  UPLOAD_RSS_GOAL_MB,
  type UploadBench,
  type UploadBenchOptions,
} from './media-upload.ts';
import { benchMixed, MIXED_CREATORS, MIXED_P99_GOAL_MS, MIXED_RATIO_GOAL } from './mixed-load.ts';
import { benchPagingScale, P99_GOAL_MS, STORES_PAGING_GOAL, WALK_GOAL } from './paging-scale.ts';
import { benchPagingStores } from './paging-stores.ts';
import { benchPublishingScale, SCALE_GOAL } from './publishing-scale.ts';
import type { RawRoute } from './raw-server.ts';
import { ANSWER_GOAL_BYTES, benchReleasesScale, RESTORE_GOAL } from './releases-scale.ts';
import { formatNotes, formatTable, hasErrors, judge, type Row, writeResults } from './report.ts';
import { benchBucketEnv } from './s3-server.ts';
import { seedFixtures } from './seed.ts';
import { benchStartup } from './startup.ts';
import { type Target, targets } from './targets.ts';
import { benchTracingCost, UNSAMPLED_GOAL } from './tracing-cost.ts';

const log = (line: string) => process.stderr.write(`${line}\n`);

function positive(name: string, fallback: number, allowZero = false): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0 || (n === 0 && !allowZero)) throw new Error(`${name}=${raw}: not a valid number`);
  return n;
}

const settings: LoadSettings = {
  seconds: positive('BENCH_SECONDS', 8),
  connections: Math.round(positive('BENCH_CONNECTIONS', 10)),
  warmupSeconds: positive('BENCH_WARMUP_SECONDS', 2, true),
  rounds: Math.max(1, Math.round(positive('BENCH_ROUNDS', 4))),
};

/** The parts of target names BENCH_ONLY gives, lower case; none without it. */
function onlyNames(): string[] {
  return (process.env.BENCH_ONLY ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
}

/** BENCH_ONLY names of the benches that run apart from the table (startup before it, the others after), each on servers of its own. */
const SEPARATE_BENCHES = [
  'startup',
  'upload',
  'publish',
  'paging',
  'mixed',
  'tracing',
  'history',
  'releases',
  'import',
];

/** Whether a separate bench runs: always without BENCH_ONLY, else when named. */
function runs(name: string): boolean {
  return onlyNames().length === 0 || onlyNames().some((o) => o.includes(name));
}

/** The targets BENCH_ONLY names (all without it), with the raw baseline of each: in list order. */
function selectTargets(all: Target[]): Target[] {
  for (const t of all) {
    if (t.baseline) continue;
    const raw = all.find((r) => r.name === t.against);
    if (!raw?.baseline || raw.fixture !== t.fixture) {
      throw new Error(`${t.name}: against "${t.against}" must name a raw target of fixture ${t.fixture}`);
    }
  }
  const only = onlyNames().filter((o) => !SEPARATE_BENCHES.some((name) => o.includes(name)));
  if (only.length === 0 && onlyNames().length > 0) return [];
  const named = all.filter((t) => only.length === 0 || only.some((o) => t.name.toLowerCase().includes(o)));
  const needed = new Set(named.map((t) => (t.baseline ? t.name : t.against)));
  const chosen = all.filter((t) => named.includes(t) || needed.has(t.name));
  if (chosen.length === 0) throw new Error(`BENCH_ONLY=${process.env.BENCH_ONLY}: no target has such a name`);
  return chosen;
}

/** The raw server's answers: per path, the reference bytes of each chosen raw target's fixture. */
function rawRoutes(chosen: Target[], ctx: Pick<BenchContext, 'fixtures'>): Record<string, RawRoute> {
  const routes: Record<string, RawRoute> = {};
  for (const t of chosen.filter((x) => x.baseline)) {
    const { path, reference } = fixtureOf(ctx, t.fixture);
    routes[path] = { body: reference.body.toString('base64'), contentType: reference.contentType };
  }
  return routes;
}

/** Every target must answer one request as expected, or nothing is measured. */
async function verify(chosen: Target[], ctx: BenchContext, when: string): Promise<void> {
  const failures: string[] = [];
  for (const target of chosen) {
    const problems = target.check(await probe(target.request(ctx)), ctx);
    for (const p of problems) failures.push(`  ${target.name}: ${p}`);
  }
  if (failures.length > 0) throw new Error(`verification ${when} failed:\n${failures.join('\n')}`);
  log(`verified ${when}: every target answers 200 with the expected answer`);
}

/** Every target in turn, round after round; warm-up only in the first round. */
async function measureAll(
  chosen: Target[],
  ctx: BenchContext,
  pids: number[],
): Promise<Array<{ target: Target; m: Measurement }>> {
  const state = chosen.map((target) => ({ target, tally: newTally(), cpu: new CpuTally() }));
  const seconds = settings.seconds / settings.rounds;
  for (let round = 1; round <= settings.rounds; round++) {
    const warmupSeconds = round === 1 ? settings.warmupSeconds : 0;
    log(`round ${round}/${settings.rounds}: ${chosen.length} targets, ${warmupSeconds} s warm-up + ${seconds} s each`);
    for (const { target, tally, cpu } of state) {
      const opts = { seconds, connections: settings.connections, warmupSeconds };
      await cpu.during(pids, () => runLoad(target.request(ctx), tally, opts));
    }
  }
  return state.map(({ target, tally, cpu }) => ({ target, m: summarize(tally, cpu.share()) }));
}

/**
 * The app under test in a child process of its own, over a SQLite store in `dataDir`, with every
 * rate limit lifted: the bench measures speed, not the limits.
 */
function startApp(dataDir: string, env: Record<string, string> = {}, root?: string): Promise<Child> {
  const file = root ? join(root, 'bench', 'app-server.ts') : './app-server.ts';
  return startChild(
    root ? 'app (against)' : 'app',
    file,
    { DATA_DIR: dataDir, ...BENCH_APP_ENV, ...npmStartEnv(), ...env },
    root ? { cwd: root } : {},
  );
}

/**
 * The upload bench again with the photo files in a bucket of a local S3-compatible server (a child
 * of its own), judged by the same ratio goal (issue 31); its memory is the disk run's to judge. The
 * server shares the machine's two cores with the app and the bare pipeline, so its own cost shows
 * in the ratio (its CPU per upload is shown beside it). Then, not judged, the same turns with that
 * server at the lowest CPU priority, so that it takes only what the upload leaves idle, as a bucket
 * on another machine takes none of these cores: the difference is the bench's server's, not the app's.
 */
async function benchUploadsToBucket(children: Child[]): Promise<{ ratio: number; lines: string[] }> {
  const s3 = await startChild('s3', './s3-server.ts', {});
  children.push(s3);
  const bucketPid = s3.process.pid!;
  const dir = mkdtempSync(join(tmpdir(), 'creator-api-bench-upload-s3-'));
  try {
    const app = await startApp(dir, benchBucketEnv(s3.ready.origin));
    children.push(app);
    const bench = (options: UploadBenchOptions) =>
      benchUploads(app.ready.origin, app.ready.key!, app.process.pid!, { bucketPid, ...options });
    let u: UploadBench;
    let elsewhere: UploadBench;
    try {
      u = await bench({});
      setPriority(bucketPid, 19);
      elsewhere = await bench({ tenAtOnce: false, judged: false });
    } finally {
      await app.stop();
    }
    return {
      ratio: u.ratio,
      lines: [
        `with the files in an S3-compatible bucket (fauxqs on loopback, in a process of its own; ratio judged):`,
        ...u.lines.slice(1),
        `the same, the bucket's server at the lowest CPU priority (as if on another machine; not judged):`,
        ...elsewhere.lines.slice(1),
      ],
    };
  } finally {
    await s3.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Two app servers started alike, one on a fresh SQLite store and one on a fresh PostgreSQL schema
 * (BENCH_DATABASE_URL), for `work`; both stopped and their stores dropped after it.
 */
async function onBothStores<T>(
  children: Child[],
  env: Record<string, string>,
  work: (lite: Child, post: Child) => Promise<T>,
): Promise<T> {
  const databaseUrl =
    process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const liteDir = mkdtempSync(join(tmpdir(), 'creator-api-bench-stores-'));
  const schema = await freshPostgresSchema(databaseUrl, 'bench');
  const mine: Child[] = [];
  try {
    const lite = await startApp(liteDir, env);
    mine.push(lite);
    const post = await startApp(liteDir, { ...env, DATABASE_URL: schema.url });
    mine.push(post);
    children.push(...mine);
    return await work(lite, post);
  } finally {
    await Promise.all(mine.map((c) => c.stop()));
    await schema.drop();
    rmSync(liteDir, { recursive: true, force: true });
  }
}

/** The mixed load on a fresh SQLite store and a fresh PostgreSQL schema, servers started alike. */
function benchMixedLoad(children: Child[]): ReturnType<typeof benchMixed> {
  log(`mixed load: ${MIXED_CREATORS} creators on SQLite and on PostgreSQL, taking turns`);
  return onBothStores(children, { BENCH_CREATORS: String(MIXED_CREATORS) }, (lite, post) =>
    benchMixed(lite, post, {
      seconds: positive('BENCH_MIXED_SECONDS', 16),
      rounds: settings.rounds,
      connections: Math.round(positive('BENCH_MIXED_CONNECTIONS', 50)),
      warmupSeconds: settings.warmupSeconds,
    }),
  );
}

async function main(): Promise<number> {
  const against = againstCommit(process.argv.slice(2));
  let startupBelow = false;
  if (runs('startup') && against === undefined) {
    // First, before any server of the bench's own is up: it times processes starting.
    log('startup: importing the app and starting npm start, beside a bare Fastify server');
    const s = await benchStartup();
    process.stdout.write(`\n${s.lines.join('\n')}\n`);
    startupBelow = s.below;
    const onlyStartup = onlyNames().length > 0 && onlyNames().every((o) => o.includes('startup'));
    if (onlyStartup) return startupBelow && process.env.BENCH_STRICT === '1' ? 1 : 0;
  }
  const chosen = selectTargets(targets);
  const dataDir = mkdtempSync(join(tmpdir(), 'creator-api-bench-'));
  const children: Child[] = [];
  try {
    const app = await startApp(dataDir);
    children.push(app);
    const started = Date.now();
    const fixtures = await seedFixtures(
      app.ready.origin,
      app.ready.key!,
      new Set(chosen.map((t) => t.fixture)),
      dataDir,
    );
    const routesFile = join(dataDir, 'raw-routes.json');
    writeFileSync(routesFile, JSON.stringify(rawRoutes(chosen, { fixtures })));
    const raw = await startChild('raw', './raw-server.ts', { BENCH_ROUTES: routesFile });
    children.push(raw);
    const ctx: BenchContext = {
      rawOrigin: raw.ready.origin,
      appOrigin: app.ready.origin,
      key: app.ready.key!,
      fixtures,
    };
    log(`app ${ctx.appOrigin} (${app.ready.dialect}), raw ${ctx.rawOrigin}; set up in ${Date.now() - started} ms:`);
    for (const [name, f] of Object.entries(fixtures)) {
      log(`  ${name}: ${f.method} ${f.path} answers ${f.reference.body.length} bytes of ${f.reference.contentType}`);
    }

    await verify(chosen, ctx, 'before the load');
    if (against !== undefined) {
      const a = await benchAgainst({
        commit: against,
        chosen,
        settings,
        startApp,
        thisSide: { app, ctx },
        raw,
        children,
      });
      process.stdout.write(`\n${a.lines.join('\n')}\n`);
      return a.hadErrors ? 1 : 0;
    }
    const pids = [process.pid, ...children.map((c) => c.process.pid!)];
    const measured = await measureAll(chosen, ctx, pids);
    await verify(chosen, ctx, 'after the load');

    const rps = new Map(measured.map(({ target, m }) => [target.name, m.requestsPerSecond]));
    const rows: Row[] = measured.map(({ target, m }) =>
      judge(target, m, rps.get(target.baseline ? target.name : target.against)!),
    );
    process.stdout.write(
      `\nCreator API bench: ${settings.seconds} s per target in ${settings.rounds} rounds, ` +
        `${settings.connections} connections, ${settings.warmupSeconds} s warm-up; ` +
        `servers in child processes, autocannon in the parent\n\n` +
        `${formatTable(rows)}\n\n`,
    );
    const withErrors = rows.filter(hasErrors);
    process.stdout.write(`${formatNotes(rows).join('\n')}\n`);
    const bodyBytes = Object.fromEntries(Object.entries(fixtures).map(([name, f]) => [name, f.reference.body.length]));
    const file = writeResults(rows, settings, { dialect: app.ready.dialect, bodyBytes });
    process.stdout.write(`Results written to ${file}\n`);
    let below = startupBelow || rows.some((r) => r.verdict === 'BELOW');
    if (runs('upload')) {
      log('photo uploads: a 12 MP JPEG through the app against the bare pipeline, then ten at once');
      // On a server of its own: the memory goal is about uploads, not about what the load targets
      // above left in the heap (a 2,000-spot list cached and served by ten connections).
      const uploadDir = mkdtempSync(join(tmpdir(), 'creator-api-bench-upload-'));
      const photos = await startApp(uploadDir);
      children.push(photos);
      const u = await benchUploads(photos.ready.origin, photos.ready.key!, photos.process.pid!).finally(async () => {
        await photos.stop();
        rmSync(uploadDir, { recursive: true, force: true });
      });
      process.stdout.write(`\n${u.lines.join('\n')}\n`);
      below ||= u.ratio > UPLOAD_RATIO_GOAL || (u.peakRssMb ?? 0) >= UPLOAD_RSS_GOAL_MB;
      log('photo uploads again, with the files in a bucket');
      const inBucket = await benchUploadsToBucket(children);
      process.stdout.write(`${inBucket.lines.join('\n')}\n`);
      below ||= inBucket.ratio > UPLOAD_RATIO_GOAL;
      log('hostile uploads: ten 16-bit TIFF and PNG at once, on a fresh server of their own');
      const hostileDir = mkdtempSync(join(tmpdir(), 'creator-api-bench-hostile-'));
      const hostile = await startApp(hostileDir);
      children.push(hostile);
      const h = await benchHostileUploads(hostile.ready.origin, hostile.ready.key!, hostile.process.pid!).finally(
        async () => {
          await hostile.stop();
          rmSync(hostileDir, { recursive: true, force: true });
        },
      );
      process.stdout.write(`\n${h.lines.join('\n')}\n`);
      below ||= h.peakRssMb >= UPLOAD_RSS_GOAL_MB || h.settledMb > h.idleMb + SETTLE_MARGIN_MB;
    }
    if (runs('publish')) {
      log('readiness and publish_changes: a 2,000-spot and a 4,000-spot guide');
      const p = await benchPublishingScale(app.ready.origin, app.ready.key!, dataDir);
      process.stdout.write(`\n${p.lines.join('\n')}\n`);
      below ||= p.worstRatio > SCALE_GOAL;
    }
    if (runs('paging')) {
      // `paging-stores` alone skips the walks on SQLite and runs only the load on both stores.
      if (!onlyNames().every((o) => o.includes('paging-stores'))) {
        log('paging: walking a 2,000-spot and a 4,000-spot guide, then 50 walkers beside another creator');
        const p = await benchPagingScale(app.ready.origin, app.ready.key!, app.ready.otherKey!, app.process.pid);
        process.stdout.write(`\n${p.lines.join('\n')}\n`);
        below ||= p.walkRatio > WALK_GOAL || !(p.p99Ms < P99_GOAL_MS);
      }
      log('paging fairness on SQLite and PostgreSQL: fresh servers started alike');
      const stores = await onBothStores(children, {}, benchPagingStores);
      process.stdout.write(`${stores.lines.join('\n')}\n`);
      below ||= stores.ratio < STORES_PAGING_GOAL || !(stores.worstP99Ms < P99_GOAL_MS);
    }
    if (runs('tracing')) {
      log('tracing: get_guide with tracing sampled at 0, beside a server with tracing never configured');
      const t = await benchTracingCost(startApp, settings);
      process.stdout.write(`\n${t.lines.join('\n')}\n`);
      below ||= t.ratio < UNSAMPLED_GOAL;
    }
    if (runs('history')) {
      log('history: three writes recording their changes, beside a server started without history');
      const hc = await benchHistoryCost(startApp, settings);
      process.stdout.write(`\n${hc.lines.join('\n')}\n`);
      below ||= hc.worst > HISTORY_COST_GOAL;
    }
    if (runs('releases')) {
      log('releases: restore_release on a 2,000- and a 4,000-spot guide, then answers with 10,000 changes');
      const r = await benchReleasesScale(app.ready.origin, app.ready.key!, dataDir);
      process.stdout.write(`\n${r.lines.join('\n')}\n`);
      below ||= r.restoreRatio > RESTORE_GOAL || r.undoRatio > RESTORE_GOAL || r.biggestAnswer >= ANSWER_GOAL_BYTES;
    }
    if (runs('import')) {
      log('import: the file readers on a 2 MB file of each worst shape, one child process each');
      const fr = await benchFileReaders();
      process.stdout.write(`\n${fr.lines.join('\n')}\n`);
      below ||= fr.below;
    }
    let mixedErrors = false;
    if (runs('mixed')) {
      const mixed = await benchMixedLoad(children);
      process.stdout.write(`\n${mixed.lines.join('\n')}\n`);
      below ||= mixed.ratio < MIXED_RATIO_GOAL || mixed.postgresP99Ms >= MIXED_P99_GOAL_MS;
      mixedErrors = mixed.hadErrors;
    }
    return withErrors.length > 0 || mixedErrors || (below && process.env.BENCH_STRICT === '1') ? 1 : 0;
  } finally {
    await Promise.all(children.map((c) => c.stop()));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    log(`bench failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  },
);
