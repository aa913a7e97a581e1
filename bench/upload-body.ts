/**
 * The app's way from a photo's first byte to its last, without the image work: the 12 MP bench JPEG
 * POSTed to upload_media for a guide that does not exist, so the body is read whole (the key checked,
 * the body read, then the target refused with 404). This checkout's app and each --against DIR's
 * (another checkout's bench/app-server.ts, with its own npm start settings) take turns, their order
 * swapped every turn. Per app: the median POST as the client times it, and the median of the
 * per-turn differences to the first app.
 * Run: npx node bench/upload-body.ts [turns] [--against DIR]...
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_APP_ENV, type Child, npmStartEnv, startChild } from './ipc.ts';
import { median } from './json-call.ts';
import { makeBenchJpeg } from './media-pipeline.ts';
import { closeConnections, postBytes } from './post-bytes.ts';

const turns = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 40);
const againstDirs = process.argv.flatMap((arg, i) => (arg === '--against' ? [process.argv[i + 1] as string] : []));
const dataDir = mkdtempSync(join(tmpdir(), 'creator-api-upload-body-'));
const apps: { name: string; child: Child; times: number[] }[] = [];
try {
  for (const root of [undefined, ...againstDirs]) {
    const env = {
      DATA_DIR: mkdtempSync(join(dataDir, 'app-')),
      ...BENCH_APP_ENV,
      ...npmStartEnv(root && join(root, 'package.json')),
    };
    const file = root ? join(root, 'bench/app-server.ts') : './app-server.ts';
    const child = await startChild(root ?? 'this checkout', file, env, root ? { cwd: root } : {});
    apps.push({ name: root ?? 'this checkout', child, times: [] });
  }
  const jpeg = await makeBenchJpeg();
  for (let i = 0; i < turns + 3; i++) {
    for (const app of i % 2 ? [...apps].reverse() : apps) {
      const start = performance.now();
      const { status } = await postBytes(
        `${app.child.ready.origin}/api/v1/media/upload?productId=gd_missing00000000`,
        { authorization: `Bearer ${app.child.ready.key}`, 'content-type': 'image/jpeg' },
        jpeg,
      );
      if (status !== 404) throw new Error(`${app.name} answered ${status}`);
      if (i >= 3) app.times.push(performance.now() - start);
    }
  }
  const first = apps[0]?.times ?? [];
  for (const { name, times } of apps) {
    const diff = median(times.map((ms, i) => ms - (first[i] as number)));
    console.log(
      `${name.padEnd(30)} POST median ${median(times).toFixed(1)} ms, per turn against the first ${diff.toFixed(1)} ms`,
    );
  }
} finally {
  closeConnections();
  for (const { child } of apps) await child.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
