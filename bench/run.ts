/**
 * npm run bench: throughput of the Creator API against a raw node:http baseline, in one run.
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
 *   BENCH_ONLY            comma-separated parts of target names to run (the baseline always runs)
 *   BENCH_CPU_PROF        a directory: run the app child with --cpu-prof writing there; read the
 *                         profile with `node bench/profile-summary.ts DIR [top] [regex]`
 *   BENCH_STRICT          1: exit non-zero when a target is BELOW its goal (errors always do)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Child, startChild } from './ipc.ts';
import { type LoadSettings, type Measurement, newTally, probe, runLoad, summarize } from './load.ts';
import { CpuTally } from './machine.ts';
import { formatNotes, formatTable, hasErrors, judge, type Row, writeResults } from './report.ts';
import { type BenchContext, type Target, targets } from './targets.ts';

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

function selectTargets(all: Target[]): Target[] {
  const only = (process.env.BENCH_ONLY ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  const chosen = all.filter(
    (t) => t.baseline || only.length === 0 || only.some((o) => t.name.toLowerCase().includes(o)),
  );
  if (!chosen.some((t) => t.baseline)) throw new Error('no baseline target defined');
  return chosen;
}

/** A realistic guide through REST (name, headline, country, tags, region, price) and its exact bytes. */
async function seedGuide(origin: string, key: string): Promise<Pick<BenchContext, 'productId' | 'reference'>> {
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${origin}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    if (!res.ok) throw new Error(`setup: ${method} ${path} answered ${res.status}: ${bytes.toString('utf8')}`);
    return { bytes, contentType: res.headers.get('content-type') ?? '' };
  };
  const created = JSON.parse((await call('POST', '/guides', { name: 'Dolomites: Hikes and Huts' })).bytes.toString());
  const productId = created.productId as string;
  await call('PATCH', `/guides/${productId}`, {
    headline: 'Twenty hut-to-hut hikes with maps, timings and where to eat',
    country: 'IT',
    storeTags: ['alpine', 'hiking', 'photography'],
  });
  await call('PUT', `/guides/${productId}/region`, {
    label: 'Dolomites',
    centerLat: 46.5,
    centerLon: 11.85,
    defaultZoom: 9,
    bbox: [11.2, 46.1, 12.6, 46.9],
  });
  await call('PUT', `/guides/${productId}/price`, { amountMinor: 2900, currency: 'eur' });
  const { bytes, contentType } = await call('GET', `/guides/${productId}`);
  return { productId, reference: { body: bytes, contentType, json: JSON.parse(bytes.toString('utf8')) } };
}

/** Every target must answer one request as expected, or nothing is measured. */
async function verify(chosen: Target[], ctx: BenchContext, when: string): Promise<void> {
  const failures: string[] = [];
  for (const target of chosen) {
    const problems = target.check(await probe(target.request(ctx)), ctx);
    for (const p of problems) failures.push(`  ${target.name}: ${p}`);
  }
  if (failures.length > 0) throw new Error(`verification ${when} failed:\n${failures.join('\n')}`);
  log(`verified ${when}: every target answers 200 with the expected guide`);
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

async function main(): Promise<number> {
  const chosen = selectTargets(targets);
  const dataDir = mkdtempSync(join(tmpdir(), 'creator-api-bench-'));
  const profDir = process.env.BENCH_CPU_PROF ? resolve(process.env.BENCH_CPU_PROF) : undefined;
  const children: Child[] = [];
  try {
    const app = await startChild(
      'app',
      './app-server.ts',
      {
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        REDIS_URL: '',
        LOG_LEVEL: 'silent',
        RATE_LIMIT_KEY_PER_MINUTE: '1000000000',
        RATE_LIMIT_CREATOR_PER_HOUR: '1000000000',
      },
      profDir ? ['--cpu-prof', '--cpu-prof-dir', profDir] : [],
    );
    children.push(app);
    const seeded = await seedGuide(app.ready.origin, app.ready.key!);
    const raw = await startChild('raw', './raw-server.ts', {
      BENCH_RAW_BODY: seeded.reference.body.toString('base64'),
      BENCH_RAW_CONTENT_TYPE: seeded.reference.contentType,
    });
    children.push(raw);
    const ctx: BenchContext = {
      rawOrigin: raw.ready.origin,
      appOrigin: app.ready.origin,
      key: app.ready.key!,
      ...seeded,
    };
    log(
      `app ${ctx.appOrigin} (${app.ready.dialect}), raw ${ctx.rawOrigin}; guide ${ctx.productId}, ` +
        `${ctx.reference.body.length} bytes of ${ctx.reference.contentType}`,
    );

    await verify(chosen, ctx, 'before the load');
    const pids = [process.pid, ...children.map((c) => c.process.pid!)];
    const measured = await measureAll(chosen, ctx, pids);
    await verify(chosen, ctx, 'after the load');

    const baseline = measured.find((x) => x.target.baseline)!.m.requestsPerSecond;
    const rows: Row[] = measured.map(({ target, m }) =>
      judge(target.name, target.baseline === true, target.goal, m, baseline),
    );
    process.stdout.write(
      `\nCreator API bench: ${settings.seconds} s per target in ${settings.rounds} rounds, ` +
        `${settings.connections} connections, ${settings.warmupSeconds} s warm-up; ` +
        `servers in child processes, autocannon in the parent\n\n` +
        `${formatTable(rows)}\n\n`,
    );
    const withErrors = rows.filter(hasErrors);
    process.stdout.write(`${formatNotes(rows).join('\n')}\n`);
    const file = writeResults(rows, settings, { dialect: app.ready.dialect, bodyBytes: ctx.reference.body.length });
    process.stdout.write(`Results written to ${file}\n`);
    if (profDir) process.stdout.write(`CPU profile of the app child goes to ${profDir} when it exits\n`);
    const below = rows.some((r) => r.verdict === 'BELOW');
    return withErrors.length > 0 || (below && process.env.BENCH_STRICT === '1') ? 1 : 0;
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
