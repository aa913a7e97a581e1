import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { TEST_CREDENTIALS } from '../helpers/blob-stores.ts';
import { type Harness, startServer } from '../helpers/harness.ts';
import { eventually, healthz, readyz } from './outage-calls.ts';
import { type PrivateS3, privateS3 } from './private-servers.ts';

const BUCKET = 'outage-photos';

async function makeBucket(endpoint: string): Promise<void> {
  const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: TEST_CREDENTIALS });
  try {
    await client.send(new CreateBucketCommand({ Bucket: BUCKET }));
  } finally {
    client.destroy();
  }
}

describe('/readyz and the bucket photo files live in', () => {
  let h: Harness;
  let s3: PrivateS3;
  before(async () => {
    s3 = await privateS3(makeBucket);
    h = await startServer({
      env: {
        S3_ENDPOINT: s3.endpoint,
        S3_BUCKET: BUCKET,
        S3_REGION: 'us-east-1',
        S3_ACCESS_KEY_ID: TEST_CREDENTIALS.accessKeyId,
        S3_SECRET_ACCESS_KEY: TEST_CREDENTIALS.secretAccessKey,
      },
    });
  });
  after(async () => {
    await h?.close();
    await s3?.stop();
  });

  /** Not ready, the bucket named down with a reason that names no host or driver message; liveness unaffected. */
  async function bucketDown(): Promise<void> {
    const started = Date.now();
    const down = await readyz(h.origin);
    assert.ok(Date.now() - started < 3000, 'a probe gets its answer in bounded time');
    assert.equal(down.status, 503);
    assert.equal(down.body.status, 'not_ready');
    assert.deepEqual(down.body.dependencies.store, { status: 'up' });
    assert.equal(down.body.dependencies.bucket.status, 'down');
    assert.match(down.body.reason, /bucket/);
    assert.doesNotMatch(down.body.reason, /127\.0\.0\.1|ECONNREFUSED/);
    assert.equal(await healthz(h.origin), 200);
  }

  it('ready while the bucket can be listed, each dependency named', async () => {
    const up = await readyz(h.origin);
    assert.equal(up.status, 200);
    assert.deepEqual(up.body, { status: 'ready', dependencies: { store: { status: 'up' }, bucket: { status: 'up' } } });
  });

  it('stopped: not ready, naming the bucket; ready again once it is back', async () => {
    await s3.stop();
    await bucketDown();
    assert.match((await readyz(h.origin)).body.reason, /bucket cannot be listed/);
    await s3.start();
    await eventually('ready again', async () => (await readyz(h.origin)).status === 200);
  });

  it('frozen: not ready within the probe bound; ready again once it thaws', { timeout: 20_000 }, async () => {
    s3.freeze();
    try {
      await bucketDown();
      assert.match((await readyz(h.origin)).body.reason, /bucket did not answer within 2 s/);
    } finally {
      s3.thaw();
    }
    await eventually('ready again', async () => (await readyz(h.origin)).status === 200);
  });
});
