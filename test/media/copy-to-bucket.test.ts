import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { openBlobStore } from '../../src/resources/media/index.ts';
import { runAdmin } from '../helpers/admin-cli.ts';
import { assertOk } from '../helpers/answers.ts';
import { useServer } from '../helpers/api.ts';
import { bucketEnv, testBlobStores } from '../helpers/blob-stores.ts';
import { putOnSale, saleGuide } from '../helpers/sale-guide.ts';
import { storedFiles } from '../helpers/uploads.ts';

async function admin(env: Record<string, string>, ...args: string[]) {
  const result = await runAdmin(env, ...args);
  return { code: result.code, json: result.code === 0 ? JSON.parse(result.stdout) : undefined, stderr: result.stderr };
}

/**
 * Moving from disk to a bucket: the operator copies the folder's files into the bucket, switches the
 * settings, and copies again what came in meanwhile. Every file a row or a release names is then in
 * the bucket with the same bytes.
 */
describe('media copy-to-bucket', {
  skip: testBlobStores().includes('s3') ? false : 'TEST_BLOB_STORES leaves s3 out',
}, () => {
  const suite = useServer({ dialect: 'sqlite', blobStore: 'disk' });

  it('copies every file into the bucket under its key, once; without a bucket it refuses', async () => {
    const h = suite.h;
    const g = await saleGuide(h, suite.apis.rest, 'Moving house');
    assertOk(await suite.apis.rest.call('update_guide', { productId: g.productId, thumbnailMediaId: g.hero }));
    await putOnSale(h, g.productId);
    const onDisk = await storedFiles(h);
    assert.ok(onDisk.length >= 13, `three photos in four sizes and a thumbnail: ${onDisk.length}`);

    const refused = await admin({ DATA_DIR: h.config.dataDir }, 'media', 'copy-to-bucket');
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /needs S3_BUCKET/);

    const env: Record<string, string> = { DATA_DIR: h.config.dataDir, ...(await bucketEnv()) };
    const first = await admin(env, 'media', 'copy-to-bucket');
    assert.equal(first.code, 0, first.stderr);
    assert.deepEqual(first.json, {
      from: join(h.config.dataDir, 'media'),
      to: env.S3_BUCKET,
      copied: onDisk.length,
      present: 0,
    });

    // A photo uploaded before the switch: the second run copies only that one's files.
    await saleGuide(h, suite.apis.rest, 'Late arrival');
    const again = await admin(env, 'media', 'copy-to-bucket');
    assert.equal(again.json.present, onDisk.length);
    assert.equal(again.json.copied, (await storedFiles(h)).length - onDisk.length);

    const bucket = openBlobStore(loadConfig(env));
    try {
      const named = new Set<string>();
      for (const row of await h.store.db.selectFrom('media').select('files').execute()) {
        for (const file of Object.values(JSON.parse(row.files) as Record<string, { key: string }>)) named.add(file.key);
      }
      for (const row of await h.store.db.selectFrom('release_files').select('blob_key').execute())
        named.add(row.blob_key);
      const thumbnail = (
        await h.store.db
          .selectFrom('guides')
          .select('thumbnail_url')
          .where('id', '=', g.productId)
          .executeTakeFirstOrThrow()
      ).thumbnail_url as string;
      named.add(/blob_[\w-]+/.exec(thumbnail)?.[0] as string);
      for (const key of named) {
        const [there, here] = await Promise.all([bucket.get(key), h.blobs.get(key)]);
        assert.ok(there && here, key);
        assert.ok(there.bytes.equals(here.bytes), `${key}: the same bytes`);
        assert.equal(there.contentType, here.contentType);
        assert.equal(there.etag, here.etag, 'the same ETag: caches keep what they hold');
      }
    } finally {
      bucket.close?.();
    }
  });
});
