import assert from 'node:assert/strict';
import { createServer, type Socket } from 'node:net';
import { after, describe, it } from 'node:test';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import type { BucketSettings } from '../../src/core/services.ts';
import { newBlobKey, putBlobs } from '../../src/resources/media/blob-store.ts';
import { IMMUTABLE, S3BlobStore, type S3BlobStoreOptions } from '../../src/resources/media/s3-blob-store.ts';
import { freshBucket, refusingProxy, TEST_CREDENTIALS, testBlobStores } from '../helpers/blob-stores.ts';

const opened: S3BlobStore[] = [];
after(() => {
  for (const store of opened) store.close();
});

function storeAt(settings: Pick<BucketSettings, 'bucket' | 'endpoint'>, options: S3BlobStoreOptions = {}) {
  const store = new S3BlobStore(
    { region: 'us-east-1', credentials: TEST_CREDENTIALS, forcePathStyle: true, keyPrefix: 'media/', ...settings },
    options,
  );
  opened.push(store);
  return store;
}

async function listed(store: S3BlobStore): Promise<string[]> {
  const keys: string[] = [];
  for await (const blob of store.list()) keys.push(blob.key);
  return keys.sort();
}

describe('S3BlobStore', { skip: testBlobStores().includes('s3') ? false : 'TEST_BLOB_STORES leaves s3 out' }, () => {
  it('lists page by page, and only blob keys under its prefix', async () => {
    const bucket = await freshBucket();
    const store = storeAt(bucket, { listPageSize: 3 });
    // Keys of one case: fauxqs 2.4 sorts a listing with localeCompare but pages on by code points,
    // so pages of mixed-case keys (as newBlobKey makes) skip one key and repeat another there. S3
    // sorts by code points throughout.
    const keys = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => (await store.put(`pagedkey${i}x`, Buffer.from('x'), 'image/png')).key),
    );
    // Objects of others in the same bucket: another prefix, and names that are no blob key.
    for (const name of ['other/blob_AAAAAAAAAAAAAAAA', 'media/sub/blob_BBBBBBBBBBBB', 'media/not a key', 'stray']) {
      await store.client.send(new PutObjectCommand({ Bucket: bucket.bucket, Key: name, Body: 'theirs' }));
    }
    const pages: string[] = [];
    for await (const blob of store.list()) pages.push(blob.key);
    assert.deepEqual(pages, keys, 'ten keys over four pages in order, nothing else');
  });

  it('objects carry their type and an immutable Cache-Control: the bucket itself serves them to buyers', async () => {
    const bucket = await freshBucket();
    const store = storeAt(bucket);
    const bytes = Buffer.from('a webp, in spirit');
    const { key, etag } = await store.put(newBlobKey(), bytes, 'image/webp');
    const direct = await fetch(`${bucket.endpoint}/${bucket.bucket}/media/${key}`);
    assert.equal(direct.status, 200);
    assert.ok(Buffer.from(await direct.arrayBuffer()).equals(bytes));
    assert.equal(direct.headers.get('content-type'), 'image/webp');
    assert.equal(direct.headers.get('cache-control'), IMMUTABLE);
    const bucketEtag = direct.headers.get('etag') as string;
    const again = await fetch(`${bucket.endpoint}/${bucket.bucket}/media/${key}`, {
      headers: { 'if-none-match': bucketEtag },
    });
    assert.equal(again.status, 304);
    // This service's own ETag (SHA-256) travels with the object, for /media.
    assert.equal((await store.get(key))?.etag, etag);
  });

  it('a bucket that refuses one write: the files already written are deleted, and the refusal is thrown', async () => {
    const bucket = await freshBucket();
    const proxy = await refusingProxy((req) => req.method === 'PUT' && req.headers['content-type'] === 'image/webp');
    try {
      const through = storeAt({ ...bucket, endpoint: proxy.endpoint });
      const direct = storeAt(bucket);
      await assert.rejects(
        putBlobs(through, [
          { bytes: Buffer.from('original'), contentType: 'image/jpeg' },
          { bytes: Buffer.from('large'), contentType: 'image/webp' },
        ]),
        (err: Error) => err.name === 'AccessDenied',
      );
      assert.equal(proxy.refused(), 1);
      assert.deepEqual(await listed(direct), [], 'the original written before the refusal is gone');
    } finally {
      await proxy.close();
    }
  });

  it('a bucket that never answers: the write fails within the request timeout instead of hanging', async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => {
      sockets.add(socket);
      socket.resume();
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    try {
      const store = storeAt(
        { bucket: 'silent-bucket', endpoint: `http://127.0.0.1:${port}` },
        { requestTimeoutMs: 200 },
      );
      const started = performance.now();
      await assert.rejects(
        store.put(newBlobKey(), Buffer.from('x'), 'image/png'),
        (err: Error) => err.name === 'TimeoutError',
      );
      // Three attempts of 200 ms and the SDK's backoff between them.
      assert.ok(performance.now() - started < 5000, `${performance.now() - started} ms`);
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });
});
