import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { openBlobStore } from '../../src/resources/media/index.ts';
import { bucketEnv, testBlobStores } from '../helpers/blob-stores.ts';
import { flat } from '../helpers/images.ts';
import { spawnService, startService } from '../helpers/service.ts';

const BUCKET = { S3_BUCKET: 'guide-photos', S3_ENDPOINT: 'http://127.0.0.1:9000' };

describe('S3 settings', () => {
  it('none: photos stay on disk', () => {
    const config = loadConfig({});
    assert.equal(config.bucket, undefined);
    assert.equal(config.mediaUrl, undefined);
  });

  it('a bucket at an endpoint: path style, us-east-1, the media/ prefix and the SDK credentials by default', () => {
    const config = loadConfig(BUCKET);
    assert.deepEqual(config.bucket, {
      bucket: 'guide-photos',
      endpoint: 'http://127.0.0.1:9000',
      region: 'us-east-1',
      credentials: undefined,
      forcePathStyle: true,
      keyPrefix: 'media/',
    });
    assert.equal(config.mediaUrl, undefined, 'served through /media unless S3_PUBLIC_URL says otherwise');
  });

  it('AWS itself: no endpoint, each bucket its own host name; every setting as given', () => {
    const config = loadConfig({
      S3_BUCKET: 'guide-photos',
      S3_REGION: 'eu-central-1',
      S3_ACCESS_KEY_ID: 'AKIAEXAMPLE',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_KEY_PREFIX: 'prod/photos/',
      S3_PUBLIC_URL: 'https://photos.example.com/',
    });
    assert.deepEqual(config.bucket, {
      bucket: 'guide-photos',
      endpoint: undefined,
      region: 'eu-central-1',
      credentials: { accessKeyId: 'AKIAEXAMPLE', secretAccessKey: 'secret' },
      forcePathStyle: false,
      keyPrefix: 'prod/photos/',
    });
    assert.equal(config.mediaUrl, 'https://photos.example.com/prod/photos/');
    assert.equal(loadConfig({ ...BUCKET, S3_FORCE_PATH_STYLE: 'false' }).bucket?.forcePathStyle, false);
    assert.equal(loadConfig({ ...BUCKET, S3_KEY_PREFIX: '' }).bucket?.keyPrefix, '');
  });

  it('refuses settings that cannot work, naming the setting', () => {
    const refused: Array<[Record<string, string>, RegExp]> = [
      [{ S3_ENDPOINT: 'http://127.0.0.1:9000' }, /S3_ENDPOINT set without S3_BUCKET/],
      [{ S3_PUBLIC_URL: 'https://photos.example.com' }, /S3_PUBLIC_URL set without S3_BUCKET/],
      [{ ...BUCKET, S3_ACCESS_KEY_ID: 'AKIAEXAMPLE' }, /S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together/],
      [{ ...BUCKET, S3_BUCKET: 'Guide_Photos' }, /S3_BUCKET: must be a bucket name/],
      [{ ...BUCKET, S3_ENDPOINT: '127.0.0.1:9000' }, /S3_ENDPOINT must be an http:\/\/ or https:\/\/ address/],
      [{ ...BUCKET, S3_PUBLIC_URL: 'ftp://photos.example.com' }, /S3_PUBLIC_URL must be an http:\/\/ or https:\/\//],
      [{ ...BUCKET, S3_FORCE_PATH_STYLE: 'yes' }, /S3_FORCE_PATH_STYLE: must be true or false/],
      [{ ...BUCKET, S3_KEY_PREFIX: '/media/' }, /S3_KEY_PREFIX: must not start with \//],
      [{ ...BUCKET, S3_KEY_PREFIX: 'a b/' }, /S3_KEY_PREFIX: may hold only/],
    ];
    for (const [env, message] of refused) assert.throws(() => loadConfig(env), message, JSON.stringify(env));
  });
});

describe('npm start with a bucket', {
  skip: testBlobStores().includes('s3') ? false : 'TEST_BLOB_STORES leaves s3 out',
}, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'creator-api-bucket-start-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('names the bucket in its banner, and takes a photo into it', async () => {
    const env = await bucketEnv();
    const started = await startService(dataDir, env);
    try {
      assert.match(started.stdout(), new RegExp(`  Photos   bucket ${env.S3_BUCKET} at ${env.S3_ENDPOINT}\n`));
      const key = /Demo key (sk_service_\S+)/.exec(started.stdout())?.[1] as string;
      const auth = { authorization: `Bearer ${key}` };
      const guide = await fetch(`${started.base}/api/v1/guides`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Bucket start' }),
      });
      const { productId } = (await guide.json()) as { productId: string };
      const jpeg = await flat(400, 300).jpeg().toBuffer();
      const upload = await fetch(`${started.base}/api/v1/media/upload?productId=${productId}`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'image/jpeg' },
        body: new Uint8Array(jpeg),
      });
      assert.equal(upload.status, 201, await upload.clone().text());
      const bucket = openBlobStore(loadConfig(env));
      try {
        const keys: string[] = [];
        for await (const blob of bucket.list()) keys.push(blob.key);
        assert.equal(keys.length, 4, 'the original and three display sizes are in the bucket');
        const original = ((await upload.json()) as { urls: { original: string } }).urls.original;
        assert.ok(original.endsWith('.jpg'));
        assert.ok((await bucket.get(/blob_[\w-]+/.exec(original)?.[0] as string))?.bytes.length);
      } finally {
        bucket.close?.();
      }
    } finally {
      started.child.kill('SIGTERM');
      assert.equal(await started.exited, 0);
    }
  });

  it('a bucket it cannot list stops the start with one line naming S3_BUCKET, nothing listens', async () => {
    // A port that refuses connections: nothing listens there any more.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as { port: number };
    await new Promise((resolve) => closed.close(resolve));
    const unreachable = spawnService(dataDir, { ...(await bucketEnv()), S3_ENDPOINT: `http://127.0.0.1:${port}` });
    assert.equal(await unreachable.exited, 1);
    assert.equal(unreachable.stdout(), '');
    assert.match(
      unreachable.stderr(),
      new RegExp(
        `^creator-api: cannot list the bucket \\S+ at http://127\\.0\\.0\\.1:${port} \\(S3_BUCKET\\): .+; check the S3_\\* settings\\n$`,
      ),
    );
    const missing = spawnService(dataDir, { ...(await bucketEnv()), S3_BUCKET: 'no-such-bucket' });
    assert.equal(await missing.exited, 1);
    assert.match(
      missing.stderr(),
      /^creator-api: cannot list the bucket no-such-bucket .*(S3_BUCKET).*bucket does not exist/,
    );
  });
});
