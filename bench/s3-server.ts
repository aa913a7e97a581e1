/**
 * Child process: an S3-compatible server (fauxqs, objects in memory) on a free loopback port with
 * one empty bucket, for the upload bench with photos in a bucket. Reports { origin, key: bucket }
 * to the parent over IPC and stops on { type: 'stop' }. fauxqs's own start listens on every
 * interface: its app is listened to on 127.0.0.1 here instead.
 */
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { buildApp } from 'fauxqs';
import { onStop, type ReadyMessage } from './ipc.ts';

export const BENCH_BUCKET = 'bench-photos';
/** Any pair does: the server checks no signature. */
export const BENCH_CREDENTIALS = { accessKeyId: 'bench', secretAccessKey: 'bench-secret' };

/** The settings that point the app at this server's bucket. */
export function benchBucketEnv(origin: string): Record<string, string> {
  return {
    S3_ENDPOINT: origin,
    S3_BUCKET: BENCH_BUCKET,
    S3_ACCESS_KEY_ID: BENCH_CREDENTIALS.accessKeyId,
    S3_SECRET_ACCESS_KEY: BENCH_CREDENTIALS.secretAccessKey,
  };
}

if (process.send) {
  const app = buildApp({ logger: false });
  const origin = await app.listen({ host: '127.0.0.1', port: 0 });
  const client = new S3Client({
    endpoint: origin,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: BENCH_CREDENTIALS,
  });
  await client.send(new CreateBucketCommand({ Bucket: BENCH_BUCKET }));
  client.destroy();
  onStop(() => app.close());
  const ready: ReadyMessage = { type: 'ready', origin, key: BENCH_BUCKET };
  process.send(ready);
}
