/**
 * Ten hostile uploads at once against an app server of its own: 16-bit TIFF and PNG of one flat
 * colour, under 1 MB on the wire each and hundreds of MB decoded. Six are a camera's 16-bit export
 * of 24 MP (RGB, 144 MB decoded: accepted), four are 7000 x 7000 RGBA (392 MB: refused from the
 * header). Measures the server's peak resident memory from /proc while they run, then how far it
 * falls back once they are done. Goal: under 600 MB, as for ten ordinary uploads.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { png16, tiff16 } from '../test/helpers/images.ts';
import { rssMb, serverRss, UPLOAD_RSS_GOAL_MB } from './media-upload.ts';

/** How close to idle the server's RSS must fall again after the burst. */
export const SETTLE_MARGIN_MB = 150;
const SETTLE_WAIT_MS = 15_000;

/** What an upload answers: the photo's size, or the error envelope. */
interface UploadAnswerBody {
  width?: number;
  height?: number;
  error?: { code: string; message: string; details?: { path?: string } };
}

export interface HostileRun {
  /** Per upload: whether it is a photo to accept, and the status and body answered. */
  answers: Array<{ acceptable: boolean; status: number; body: UploadAnswerBody }>;
  wireBytes: number[];
  idleMb: number;
  peakMb: number;
  /** RSS once it fell within SETTLE_MARGIN_MB of idle, or after SETTLE_WAIT_MS. */
  settledMb: number;
  ms: number;
}

function hostileFiles(): Array<{ acceptable: boolean; bytes: Buffer }> {
  const camera = [tiff16(6000, 4000, 3), png16(6000, 4000, 3)];
  const bombs = [tiff16(7000, 7000, 4), png16(7000, 7000, 4)];
  return Array.from({ length: 10 }, (_, i) => {
    const acceptable = i < 6;
    return { acceptable, bytes: (acceptable ? camera : bombs)[i % 2] as Buffer };
  });
}

export async function runHostileUploads(origin: string, key: string, pid: number): Promise<HostileRun> {
  const guide = await fetch(`${origin}/api/v1/guides`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Hostile uploads' }),
  });
  if (guide.status !== 201) throw new Error(`create_guide answered ${guide.status}`);
  const { productId } = (await guide.json()) as { productId: string };
  const files = hostileFiles();
  const run = await serverRss(pid, () =>
    Promise.all(
      files.map(async ({ acceptable, bytes }) => {
        const res = await fetch(`${origin}/api/v1/media/upload?productId=${productId}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/octet-stream' },
          body: new Uint8Array(bytes),
        });
        return { acceptable, status: res.status, body: (await res.json()) as UploadAnswerBody };
      }),
    ),
  );
  const current = () => rssMb(pid) ?? 0;
  const [idleMb, peakMb] = [run.beforeMb ?? 0, run.peakMb ?? 0];
  let settledMb = current();
  for (let waited = 0; settledMb > idleMb + SETTLE_MARGIN_MB && waited < SETTLE_WAIT_MS; waited += 250) {
    await sleep(250);
    settledMb = current();
  }
  return { answers: run.result, wireBytes: files.map((f) => f.bytes.length), idleMb, peakMb, settledMb, ms: run.ms };
}

export async function benchHostileUploads(origin: string, key: string, pid: number) {
  const run = await runHostileUploads(origin, key, pid);
  const wrong = run.answers.find((a) => a.status !== (a.acceptable ? 201 : 400));
  if (wrong) throw new Error(`hostile upload answered ${wrong.status}: ${JSON.stringify(wrong.body).slice(0, 300)}`);
  const verdict = (ok: boolean) => (ok ? 'ok' : 'BELOW');
  const kb = run.wireBytes.map((b) => Math.round(b / 1000));
  const lines = [
    `hostile uploads: 10 at once, 16-bit TIFF and PNG of ${Math.min(...kb)}-${Math.max(...kb)} KB each (6 of 24 MP accepted, 4 of 7000 x 7000 RGBA refused):`,
    `  ${run.ms.toFixed(0)} ms, server RSS ${run.idleMb} MB before, peak ${run.peakMb} MB (goal < ${UPLOAD_RSS_GOAL_MB} MB) ${verdict(run.peakMb < UPLOAD_RSS_GOAL_MB)}`,
    `  after: ${run.settledMb} MB (goal within ${SETTLE_MARGIN_MB} MB of before) ${verdict(run.settledMb <= run.idleMb + SETTLE_MARGIN_MB)}`,
  ];
  return { peakRssMb: run.peakMb, settledMb: run.settledMb, idleMb: run.idleMb, lines };
}
