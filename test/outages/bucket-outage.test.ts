import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { buildApp as buildS3Server } from 'fauxqs';
import { TEST_CREDENTIALS } from '../helpers/blob-stores.ts';
import { type Harness, startServer } from '../helpers/harness.ts';
import { eventually, healthz, readyz } from './outage-calls.ts';
import { freePort } from './private-servers.ts';

const BUCKET = 'outage-photos';

/** An S3-compatible server of the test's own (fauxqs, in memory) on a fixed loopback port, with the bucket made. */
async function s3Server(port: number): Promise<{ close(): Promise<void> }> {
  const app = buildS3Server({ logger: false });
  await app.listen({ host: '127.0.0.1', port });
  const client = new S3Client({
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: TEST_CREDENTIALS,
  });
  try {
    await client.send(new CreateBucketCommand({ Bucket: BUCKET }));
  } finally {
    client.destroy();
  }
  return {
    async close() {
      app.server.closeAllConnections();
      await app.close();
    },
  };
}

describe('/readyz and the bucket photo files live in', () => {
  let h: Harness;
  let port: number;
  let s3: { close(): Promise<void> } | undefined;
  before(async () => {
    port = await freePort();
    s3 = await s3Server(port);
    h = await startServer({
      env: {
        S3_ENDPOINT: `http://127.0.0.1:${port}`,
        S3_BUCKET: BUCKET,
        S3_REGION: 'us-east-1',
        S3_ACCESS_KEY_ID: TEST_CREDENTIALS.accessKeyId,
        S3_SECRET_ACCESS_KEY: TEST_CREDENTIALS.secretAccessKey,
      },
    });
  });
  after(async () => {
    await h?.close();
    await s3?.close();
  });

  it('not ready while the bucket cannot be listed, naming it; /healthz 200; ready again once it can', async () => {
    const up = await readyz(h.origin);
    assert.equal(up.status, 200);
    assert.deepEqual(up.body.dependencies, { store: { status: 'up' }, bucket: { status: 'up' } });

    await s3?.close();
    s3 = undefined;
    const down = await readyz(h.origin);
    assert.equal(down.status, 503);
    assert.equal(down.body.status, 'not_ready');
    assert.deepEqual(down.body.dependencies.store, { status: 'up' });
    assert.equal(down.body.dependencies.bucket.status, 'down');
    assert.match(down.body.reason, /bucket cannot be listed/);
    assert.doesNotMatch(down.body.reason, /127\.0\.0\.1|ECONNREFUSED/, 'no host or driver message');
    assert.equal(await healthz(h.origin), 200);

    s3 = await s3Server(port);
    await eventually('ready again', async () => (await readyz(h.origin)).status === 200);
  });
});
