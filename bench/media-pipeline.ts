/**
 * The photo pipeline on a 12-megapixel JPEG of about 5 MB: the bare sharp work (renderRenditions)
 * against the whole processUpload (checks, EXIF, the same sharp work), then ten uploads at once and
 * the process's peak RSS. Run: ./node_modules/.bin/node bench/media-pipeline.ts [runs]
 * The upload benchmark reuses makeBenchJpeg and timeBarePipeline.
 */
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { processUpload, renderRenditions } from '../src/resources/media/image-pipeline.ts';
import { median } from './json-call.ts';

export const BENCH_WIDTH = 4000;
export const BENCH_HEIGHT = 3000;

/**
 * 4000 x 3000 (12 MP): gradients plus per-pixel noise, so the JPEG stays about 5 MB as a camera's
 * would, with the EXIF a phone writes. Made in ~1.5 s (sharp's own noise generator takes ~9 s).
 */
export async function makeBenchJpeg(): Promise<Buffer> {
  const [w, h] = [BENCH_WIDTH, BENCH_HEIGHT];
  const px = randomBytes(w * h * 3);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = (y * w + x) * 3;
      const base = (x * 160) / w + (y * 64) / h + 16;
      px[i] = base + (px[i]! % 52);
      px[i + 1] = base * 0.8 + 30 + (px[i + 1]! % 52);
      px[i + 2] = 200 - base * 0.5 + (px[i + 2]! % 52);
    }
  }
  return sharp(px, { raw: { width: w, height: h, channels: 3 } })
    .jpeg({ quality: 90 })
    .withExif({
      IFD0: { Make: 'Bench', Model: 'B1', Artist: 'Bench Photographer' },
      IFD2: { DateTimeOriginal: '2024:06:03 10:30:00', OffsetTimeOriginal: '+02:00' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '46/1 30/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '11/1 45/1 0/1' },
    })
    .toBuffer();
}

export interface Timing {
  runsMs: number[];
  medianMs: number;
}

/** Times `work` `runs` times in a row, after one untimed warm-up run. */
export async function timeRuns(work: () => Promise<unknown>, runs: number): Promise<Timing> {
  await work();
  const runsMs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await work();
    runsMs.push(performance.now() - start);
  }
  return { runsMs, medianMs: median(runsMs) };
}

/** The bare sharp pipeline of one upload (orient, original, three display sizes), nothing else. */
export function timeBarePipeline(jpeg: Buffer, runs = 5): Promise<Timing> {
  return timeRuns(() => renderRenditions(jpeg, 'jpeg'), runs);
}

/** Runs `work` while sampling RSS every 10 ms; answers the peak in MB and the time taken. */
export async function peakRss(work: () => Promise<unknown>): Promise<{ peakMb: number; ms: number }> {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 10);
  const start = performance.now();
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return { peakMb: Math.round(Math.max(peak, process.memoryUsage.rss()) / 1e6), ms: performance.now() - start };
}

async function main(): Promise<void> {
  const runs = Number(process.argv[2] ?? 5);
  const jpeg = await makeBenchJpeg();
  console.log(`input: ${BENCH_WIDTH}x${BENCH_HEIGHT} JPEG, ${(jpeg.length / 1e6).toFixed(2)} MB`);
  // Rounds take turns, so load from other processes falls on both alike.
  const bare: number[] = [];
  const full: number[] = [];
  for (let i = 0; i < runs; i++) {
    bare.push(...(await timeBarePipeline(jpeg, 1)).runsMs);
    full.push(...(await timeRuns(() => processUpload(jpeg, 'image/jpeg'), 1)).runsMs);
  }
  const show = (ms: number[]) => `median ${median(ms).toFixed(0)} ms  (${ms.map((v) => v.toFixed(0)).join(' ')})`;
  console.log(`bare pipeline   ${show(bare)}`);
  console.log(`processUpload   ${show(full)}`);
  console.log(`ratio           ${(median(full) / median(bare)).toFixed(2)}`);
  const before = Math.round(process.memoryUsage.rss() / 1e6);
  const ten = await peakRss(() => Promise.all(Array.from({ length: 10 }, () => processUpload(jpeg, 'image/jpeg'))));
  console.log(`10 at once      ${ten.ms.toFixed(0)} ms, peak RSS ${ten.peakMb} MB (${before} MB before)`);
}

if (import.meta.main) await main();
