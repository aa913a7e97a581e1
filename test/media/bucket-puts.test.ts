import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { BucketSettings } from '../../src/core/services.ts';
import { newBlobKey } from '../../src/resources/media/blob-store.ts';
import { S3BlobStore } from '../../src/resources/media/s3-blob-store.ts';
import { apiFor } from '../helpers/api.ts';
import {
  bucketEnv,
  freshBucket,
  type RefusingProxy,
  refusingProxy,
  s3Endpoint,
  TEST_CREDENTIALS,
  testBlobStores,
} from '../helpers/blob-stores.ts';
import { testDialects } from '../helpers/dialects.ts';
import { newGuide } from '../helpers/fixtures.ts';
import { type Harness, startServer } from '../helpers/harness.ts';
import { phoneJpeg } from '../helpers/images.ts';
import { uploadRaw } from '../helpers/uploads.ts';

interface Put {
  /** `/<bucket>/<object name>`, path style. */
  path: string;
  headers: IncomingHttpHeaders;
}

/** A proxy in front of the test bucket that passes everything on and remembers each PUT's headers. */
async function recordingProxy(): Promise<{ proxy: RefusingProxy; puts: Put[] }> {
  const puts: Put[] = [];
  const proxy = await refusingProxy((req) => {
    if (req.method === 'PUT') puts.push({ path: req.url ?? '', headers: req.headers });
    return false;
  });
  return { proxy, puts };
}

/** The object as the bucket keeps it, with the checksum it stored beside it. */
async function objectOf(endpoint: string, put: Put): Promise<{ bytes: Buffer; checksum: string | null }> {
  const res = await fetch(`${endpoint}${put.path}`, { headers: { 'x-amz-checksum-mode': 'ENABLED' } });
  assert.equal(res.status, 200, put.path);
  return { bytes: Buffer.from(await res.arrayBuffer()), checksum: res.headers.get('x-amz-checksum-sha256') };
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest();

/**
 * Every file is hashed once, for its ETag, and that SHA-256 is what the bucket is given to verify the
 * body against: SigV4's payload hash and the object's checksum (x-amz-checksum-sha256), kept beside
 * it. The SDK adds no checksum of its own (CRC32, a second pass over every file).
 */
const bucketSkip = testBlobStores().includes('s3') ? false : 'TEST_BLOB_STORES leaves s3 out';
for (const { dialect, skip } of await testDialects()) {
  describe(`an upload's puts to the bucket (${dialect})`, { skip: skip || bucketSkip }, () => {
    let h: Harness;
    let recorded: Awaited<ReturnType<typeof recordingProxy>>;
    before(async () => {
      recorded = await recordingProxy();
      h = await startServer({ dialect, env: await bucketEnv(recorded.proxy.endpoint) });
    });
    after(async () => {
      await h?.close();
      await recorded?.proxy.close();
    });

    it("each file's SHA-256 is its payload hash and its checksum in the bucket; no CRC32 is computed", async () => {
      const productId = await newGuide(apiFor(h, 'rest', h.alice.writeKey), 'One hash');
      recorded.puts.length = 0;
      const res = await uploadRaw(h, h.alice.writeKey, await phoneJpeg(), 'image/jpeg', { productId });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(recorded.puts.length, 4, 'the original and three display sizes');
      const direct = await s3Endpoint();
      for (const put of recorded.puts) {
        const { bytes, checksum } = await objectOf(direct, put);
        const digest = sha256(bytes);
        assert.equal(put.headers['x-amz-content-sha256'], digest.toString('hex'), `${put.path}: payload hash`);
        assert.equal(put.headers['x-amz-checksum-sha256'], digest.toString('base64'), `${put.path}: checksum sent`);
        assert.equal(put.headers['x-amz-meta-sha256'], digest.toString('base64url'), `${put.path}: the ETag's hash`);
        assert.equal(checksum, digest.toString('base64'), `${put.path}: the checksum the bucket keeps`);
        const others = Object.keys(put.headers).filter(
          (n) => n.startsWith('x-amz-checksum-') && n !== 'x-amz-checksum-sha256',
        );
        assert.deepEqual(others, [], `${put.path}: no second checksum`);
      }
      // Served back through /media: the SDK reads the object and checks it against that checksum.
      for (const url of Object.values(res.body.urls as Record<string, string>)) {
        assert.equal((await fetch(url)).status, 200, url);
      }
    });
  });
}

describe('a bucket that takes no checksums', { skip: bucketSkip }, () => {
  const opened: S3BlobStore[] = [];
  after(() => {
    for (const store of opened) store.close();
  });

  it('AWS_REQUEST_CHECKSUM_CALCULATION=WHEN_REQUIRED: puts carry the payload hash and no checksum header', async () => {
    const { proxy, puts } = await recordingProxy();
    const bucket = await freshBucket();
    const settings: BucketSettings = {
      bucket: bucket.bucket,
      endpoint: proxy.endpoint,
      region: 'us-east-1',
      credentials: TEST_CREDENTIALS,
      forcePathStyle: true,
      keyPrefix: 'media/',
    };
    const was = process.env.AWS_REQUEST_CHECKSUM_CALCULATION;
    process.env.AWS_REQUEST_CHECKSUM_CALCULATION = 'WHEN_REQUIRED';
    try {
      const store = new S3BlobStore(settings);
      opened.push(store);
      const bytes = Buffer.from('a photo, in spirit');
      const { key } = await store.put(newBlobKey(), bytes, 'image/webp');
      assert.equal(puts.length, 1);
      const headers = puts[0]?.headers ?? {};
      assert.equal(headers['x-amz-content-sha256'], sha256(bytes).toString('hex'));
      assert.deepEqual(
        Object.keys(headers).filter((n) => n.startsWith('x-amz-checksum-')),
        [],
      );
      assert.ok((await store.get(key))?.bytes.equals(bytes));
    } finally {
      if (was === undefined) delete process.env.AWS_REQUEST_CHECKSUM_CALCULATION;
      else process.env.AWS_REQUEST_CHECKSUM_CALCULATION = was;
      await proxy.close();
    }
  });
});
