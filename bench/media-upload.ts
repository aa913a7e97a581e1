/**
 * The photo upload through the running app (REST, raw JPEG body) against the bare sharp pipeline on
 * the same bytes in this process, taking turns; then ten uploads at once and the app child's peak
 * resident memory, read from /proc. It runs on an app server of its own (see run.ts). Goals (issue 31): an
 * upload costs at most 1.2x the bare pipeline, with its files on disk and in a bucket alike, and ten
 * concurrent uploads keep the server under 600 MB.
 */
import { readFileSync } from 'node:fs';
import { median } from './json-call.ts';
import { processCpuMs } from './machine.ts';
import { makeBenchJpeg, timeBarePipeline } from './media-pipeline.ts';
import { postBytes } from './post-bytes.ts';

export const UPLOAD_RATIO_GOAL = 1.2;
export const UPLOAD_RSS_GOAL_MB = 600;

/** Resident memory of a process in MB now, or undefined where /proc cannot be read. */
export function rssMb(pid: number): number | undefined {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round((Number(m[1]) * 1024) / 1e6) : undefined;
  } catch {
    return undefined;
  }
}

/** Runs `work` while sampling the server's RSS every 10 ms: before, peak (MB) and the time taken. */
export async function serverRss<T>(
  pid: number,
  work: () => Promise<T>,
): Promise<{ result: T; beforeMb: number | undefined; peakMb: number | undefined; ms: number }> {
  const beforeMb = rssMb(pid);
  let peakMb = beforeMb;
  const timer = setInterval(() => {
    const now = rssMb(pid);
    if (now !== undefined) peakMb = Math.max(peakMb ?? 0, now);
  }, 10);
  const started = performance.now();
  try {
    const result = await work();
    return { result, beforeMb, peakMb, ms: performance.now() - started };
  } finally {
    clearInterval(timer);
  }
}

async function upload(origin: string, key: string, productId: string, body: Buffer): Promise<void> {
  const { status, text } = await postBytes(
    `${origin}/api/v1/media/upload?productId=${productId}&credit=Bench`,
    { authorization: `Bearer ${key}`, 'content-type': 'image/jpeg' },
    body,
  );
  if (status !== 201) throw new Error(`upload answered ${status}: ${text.slice(0, 300)}`);
}

export interface UploadBench {
  inputMb: number;
  bareMs: number;
  uploadMs: number;
  ratio: number;
  tenAtOnceMs: number;
  peakRssMb: number | undefined;
  lines: string[];
}

export interface UploadBenchOptions {
  /** Timed turns of each (default 5). */
  runs?: number;
  /** The bucket server's process, when the files go to a bucket: its CPU per upload is reported. */
  bucketPid?: number;
  /** Ten uploads at once and the server's peak memory (default true). */
  tenAtOnce?: boolean;
  /** Whether the ratio is held to the goal (default true); a figure for comparison only is not. */
  judged?: boolean;
}

export async function benchUploads(
  origin: string,
  key: string,
  appPid: number,
  { runs = 5, bucketPid, tenAtOnce = true, judged = true }: UploadBenchOptions = {},
): Promise<UploadBench> {
  const guide = await fetch(`${origin}/api/v1/guides`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Upload bench' }),
  });
  const { productId } = (await guide.json()) as { productId: string };
  const jpeg = await makeBenchJpeg();
  // Sent as a client holds its file, without a copy of its own (bench/post-bytes.ts): the bare
  // pipeline is handed the same bytes.
  await upload(origin, key, productId, jpeg); // warm-up: the app's first sharp call loads libvips
  const bare: number[] = [];
  const full: number[] = [];
  const bucketCpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    bare.push(...(await timeBarePipeline(jpeg, 1)).runsMs);
    const bucketCpu0 = bucketPid === undefined ? undefined : processCpuMs(bucketPid);
    const start = performance.now();
    await upload(origin, key, productId, jpeg);
    full.push(performance.now() - start);
    const bucketCpu1 = bucketPid === undefined ? undefined : processCpuMs(bucketPid);
    if (bucketCpu0 !== undefined && bucketCpu1 !== undefined) bucketCpu.push(bucketCpu1 - bucketCpu0);
  }
  const ten = tenAtOnce
    ? await serverRss(appPid, () => Promise.all(Array.from({ length: 10 }, () => upload(origin, key, productId, jpeg))))
    : undefined;
  const [before, peak] = [ten?.beforeMb, ten?.peakMb];
  const result = {
    inputMb: jpeg.length / 1e6,
    bareMs: median(bare),
    uploadMs: median(full),
    ratio: median(full) / median(bare),
    tenAtOnceMs: ten?.ms ?? 0,
    peakRssMb: peak,
  };
  const verdict = (ok: boolean) => (ok ? 'ok' : 'BELOW');
  const lines = [
    `photo upload (12 MP JPEG, ${result.inputMb.toFixed(2)} MB, raw body over REST) against the bare sharp pipeline, ${runs} turns each:`,
    `  bare pipeline  median ${result.bareMs.toFixed(0)} ms  (${bare.map((v) => v.toFixed(0)).join(' ')})`,
    `  upload         median ${result.uploadMs.toFixed(0)} ms  (${full.map((v) => v.toFixed(0)).join(' ')})`,
    `  ratio          ${result.ratio.toFixed(2)} ${judged ? `(goal <= ${UPLOAD_RATIO_GOAL}) ${verdict(result.ratio <= UPLOAD_RATIO_GOAL)}` : '(not judged)'}`,
  ];
  if (bucketCpu.length > 0) {
    lines.push(
      `  bucket server  median ${median(bucketCpu).toFixed(0)} ms of CPU per upload, on the same cores (${bucketCpu.map((v) => v.toFixed(0)).join(' ')})`,
    );
  }
  if (ten) {
    lines.push(
      `  10 at once     ${result.tenAtOnceMs.toFixed(0)} ms, server RSS ${before ?? '?'} MB before, peak ${peak ?? '?'} MB (goal < ${UPLOAD_RSS_GOAL_MB} MB) ${verdict((peak ?? 0) < UPLOAD_RSS_GOAL_MB)}`,
    );
  }
  return { ...result, lines };
}
