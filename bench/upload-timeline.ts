/**
 * Where an upload's wall time goes, against the bare pipeline's: the app (bench/app-server.ts) and
 * a bare server (bench/upload-bare-server.ts: the body read whole, then renderRenditions) run as
 * `npm start` runs the service, each with bench/upload-timeline-hooks.ts preloaded, which stamps
 * every step of a request (sharp's header read and encodes, file writes and syncs, SQL, S3 puts,
 * V8's collections) and sends the list here. Turns alternate: the bench's own baseline (the bare
 * pipeline in this process, as bench/media-upload.ts times it), the bare server, the app; each
 * ratio is taken within a turn, so load from other processes falls on all three alike.
 * Run: npx node bench/upload-timeline.ts [turns] [--bucket [--bucket-nice]] [--default-malloc] [--steps] [--against DIR]
 *   --bucket          the files in the bench's bucket (bench/s3-server.ts, a process on the same cores);
 *                     the bucket server's CPU per upload is reported with each app
 *   --bucket-nice     that server at nice 19: it takes only CPU the uploads leave idle, as a bucket on
 *                     another machine takes none of these cores
 *   --default-malloc  the servers without npm start's allocator settings
 *   --steps           every turn's timeline, not only the medians
 *   --against DIR     another app, from another checkout (its bench/app-server.ts), in the same turns;
 *                     may be given more than once
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderRenditions } from '../src/resources/media/image-pipeline.ts';
import { BENCH_APP_ENV, type Child, npmStartEnv, startChild } from './ipc.ts';
import { median } from './json-call.ts';
import { processCpuMs } from './machine.ts';
import { makeBenchJpeg } from './media-pipeline.ts';
import { postBytes } from './post-bytes.ts';
import { benchBucketEnv } from './s3-server.ts';
import type { Step, TimelineMessage } from './upload-timeline-hooks.ts';

const turns = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 9);
const bucket = process.argv.includes('--bucket');
const bucketNice = process.argv.includes('--bucket-nice');
const allSteps = process.argv.includes('--steps');
const defaultMalloc = process.argv.includes('--default-malloc');
/** What `npm start` of a checkout sets (this one's unless named), or nothing with --default-malloc. */
const startEnvOf = (root?: string) => (defaultMalloc ? {} : npmStartEnv(root && join(root, 'package.json')));
const serverEnv = startEnvOf();
const againstDirs = process.argv.flatMap((arg, i) => (arg === '--against' ? [process.argv[i + 1] as string] : []));
const hooks = { execArgv: ['--import', new URL('./upload-timeline-hooks.ts', import.meta.url).pathname] };

const children: Child[] = [];
const dataDir = mkdtempSync(join(tmpdir(), 'creator-api-upload-timeline-'));
try {
  let s3Env: Record<string, string> = {};
  let s3Pid: number | undefined;
  if (bucket) {
    const s3 = await startChild('s3', './s3-server.ts', {});
    children.push(s3);
    s3Env = benchBucketEnv(s3.ready.origin);
    s3Pid = s3.process.pid;
    if (bucketNice && s3Pid !== undefined) setPriority(s3Pid, 19);
  }
  /** The bucket server's CPU ms so far (0 without one): sampled around each upload to an app. */
  const s3Cpu = () => (s3Pid === undefined ? 0 : (processCpuMs(s3Pid) ?? 0));
  const appEnv = { ...BENCH_APP_ENV, ...s3Env };
  const jpeg = await makeBenchJpeg();
  // Sent as a client holds its file, without a copy of its own (bench/post-bytes.ts).
  const post = async (url: string, headers: Record<string, string>) => {
    const start = performance.now();
    const { status, text } = await postBytes(url, headers, jpeg);
    if (status !== 201) throw new Error(`${url} answered ${status}: ${text.slice(0, 300)}`);
    return performance.now() - start;
  };
  const servers: Server[] = [];
  const bare = await startChild('bare server', './upload-bare-server.ts', serverEnv, hooks);
  children.push(bare);
  servers.push({
    child: bare,
    send: () => post(`${bare.ready.origin}/`, { 'content-type': 'image/jpeg' }),
    timelines: [],
    bucketCpu: [],
  });
  const apps: [string, string | undefined][] = [['upload', undefined]];
  for (const dir of againstDirs) apps.push([`upload (${dir})`, dir]);
  for (const [name, root] of apps) {
    const file = root ? join(root, 'bench/app-server.ts') : './app-server.ts';
    // Each checkout's app with its own `npm start` settings.
    const env = { DATA_DIR: mkdtempSync(join(dataDir, 'app-')), ...appEnv, ...startEnvOf(root) };
    const app = await startChild(name, file, env, { ...hooks, ...(root && { cwd: root }) });
    children.push(app);
    const upload = await uploader(app, post);
    const server: Server = { child: app, send: upload, timelines: [], bucketCpu: [] };
    server.send = async () => {
      const cpu0 = s3Cpu();
      const ms = await upload();
      server.bucketCpu.push(s3Cpu() - cpu0);
      return ms;
    };
    servers.push(server);
  }
  for (const server of servers) {
    server.child.process.on('message', (m: TimelineMessage) => {
      if (m?.type === 'timeline' && m.url !== '/api/v1/guides') server.timelines.push(m);
    });
  }
  const inProcess = async () => {
    const start = performance.now();
    await renderRenditions(jpeg, 'jpeg');
    return performance.now() - start;
  };

  // Warm-up: libvips' first load in each process, JIT.
  for (let i = 0; i < 2; i++) {
    await inProcess();
    for (const server of servers) await server.send();
  }
  await new Promise((r) => setTimeout(r, 100));
  for (const server of servers) {
    server.timelines.length = 0;
    server.bucketCpu.length = 0;
  }

  const bareWall: number[] = [];
  const wall = new Map<Server, number[]>(servers.map((s) => [s, []]));
  for (let i = 0; i < turns; i++) {
    bareWall.push(await inProcess());
    for (const server of servers) wall.get(server)?.push(await server.send());
  }
  await new Promise((r) => setTimeout(r, 200)); // the last timelines' messages

  const ms = (v: number) => v.toFixed(0).padStart(4);
  const ratios = (a: number[], b: number[]) => a.map((v, i) => v / (b[i] as number)).sort((x, y) => x - y);
  const spread = (r: number[]) => `median ${median(r).toFixed(2)} (${r.map((v) => v.toFixed(2)).join(' ')})`;
  console.log(
    `${bucket ? `bucket${bucketNice ? ' (its server at nice 19)' : ''}` : 'disk'}, ${turns} turns, servers with ${JSON.stringify(serverEnv)}, load ${loadavg()[0]?.toFixed(1)}`,
  );
  console.log(`bare pipeline in this process: median ${ms(median(bareWall))} ms (the bench's baseline)`);
  for (const [server, times] of wall) {
    console.log(
      `${server.child.name.padEnd(20)} median ${ms(median(times))} ms, over the bench's baseline in each turn: ${spread(ratios(times, bareWall))}`,
    );
  }
  const bareServerWall = wall.get(servers[0] as Server) ?? [];
  for (const server of servers.slice(1)) {
    const times = wall.get(server) ?? [];
    console.log(
      `${server.child.name.padEnd(20)} over the bare server in each turn: ${spread(ratios(times, bareServerWall))}`,
    );
  }
  for (const { child, timelines: list, bucketCpu } of servers) {
    const inBucket =
      s3Pid === undefined || bucketCpu.length === 0 ? '' : `, bucket server CPU ${ms(median(bucketCpu))} ms`;
    console.log(
      `\n${child.name}: ${list.length} requests, server-side median ${ms(median(list.map((t) => t.totalMs)))} ms, main thread busy ${median(list.map((t) => t.busy * 100)).toFixed(0)}%, CPU ${ms(median(list.map((t) => t.cpuMs)))} ms, page faults ${median(list.map((t) => t.pageFaults))}${inBucket}`,
    );
    for (const line of summary(list)) console.log(line);
    if (allSteps) for (const t of list) console.log(`  ${steps(t.steps)}`);
  }
} finally {
  for (const child of children.reverse()) await child.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

interface Server {
  child: Child;
  send: () => Promise<number>;
  timelines: TimelineMessage[];
  /** The bucket server's CPU (ms) during each upload to this server, with --bucket. */
  bucketCpu: number[];
}

/** A guide on the app, and a function that uploads the photo to it (wall ms, seen by the client). */
async function uploader(
  app: Child,
  post: (url: string, headers: Record<string, string>) => Promise<number>,
): Promise<() => Promise<number>> {
  const auth = { authorization: `Bearer ${app.ready.key}` };
  const made = await fetch(`${app.ready.origin}/api/v1/guides`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Timeline' }),
  });
  const { productId } = (await made.json()) as { productId: string };
  const url = `${app.ready.origin}/api/v1/media/upload?productId=${productId}&credit=Bench`;
  return () => post(url, { ...auth, 'content-type': 'image/jpeg' });
}

/** Each step name's median first start and last end over the requests, in order of start. */
function summary(list: TimelineMessage[]): string[] {
  const byName = new Map<string, { starts: number[]; ends: number[]; counts: number[]; spent: number[] }>();
  for (const t of list) {
    const seen = new Map<string, Step[]>();
    for (const step of t.steps) seen.set(step.name, [...(seen.get(step.name) ?? []), step]);
    for (const [name, all] of seen) {
      const entry = byName.get(name) ?? { starts: [], ends: [], counts: [], spent: [] };
      entry.starts.push(Math.min(...all.map((s) => s.start)));
      entry.ends.push(Math.max(...all.map((s) => s.end)));
      entry.counts.push(all.length);
      entry.spent.push(all.reduce((n, s) => n + s.end - s.start, 0));
      byName.set(name, entry);
    }
  }
  return [...byName]
    .map(([name, e]) => ({ name, start: median(e.starts), end: median(e.ends), e, seenIn: e.starts.length }))
    .sort((a, b) => a.start - b.start)
    .map(
      ({ name, start, end, e, seenIn }) =>
        `  ${start.toFixed(1).padStart(6)} → ${end.toFixed(1).padStart(6)} ms  ${name.padEnd(34)} ` +
        `x${median(e.counts)} in ${seenIn}/${list.length}, ${median(e.spent).toFixed(1)} ms in it`,
    );
}

function steps(list: Step[]): string {
  return list
    .map((s) => `${s.name} ${s.start.toFixed(0)}-${s.end.toFixed(0)} (cpu ${s.mainCpu.toFixed(0)})`)
    .join(' | ');
}
