import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { emptyGuideRecords, makeArchive } from '../helpers/archives.ts';
import { bucketEnv, type RefusingProxy, refusingProxy, testBlobStores } from '../helpers/blob-stores.ts';
import { testDialects } from '../helpers/dialects.ts';
import { uploadArchive } from '../helpers/example-story.ts';
import { type Harness, startServer } from '../helpers/harness.ts';
import { flat } from '../helpers/images.ts';
import { storedFiles } from '../helpers/uploads.ts';

/**
 * An import whose photo files cannot all be written (a bucket refusing writes half-way) leaves
 * nothing: the files it wrote first are deleted, and no guide row was made.
 */

const RENDITIONS = ['original', 'large', 'medium', 'small'] as const;

/** A guide with one stored image of four files, each its own bytes. */
async function fourFiles(): Promise<Buffer> {
  const records = emptyGuideRecords('Half written');
  const files = new Map<string, Buffer>();
  const stored: Record<string, unknown> = {};
  for (const [i, rendition] of RENDITIONS.entries()) {
    const key = `blob_${String(i).repeat(16)}`;
    files.set(
      `files/${key}.png`,
      await flat(8 + i, 8)
        .png()
        .toBuffer(),
    );
    stored[rendition] = { key, contentType: 'image/png', width: 8 + i, height: 8 };
  }
  records.storedImages = [{ storageId: 'sto_CCCCCCCCCCCCCCCC', width: 8, height: 8, files: stored }];
  return makeArchive(records, files);
}

const bucketSkip = testBlobStores().includes('s3') ? false : 'TEST_BLOB_STORES leaves s3 out';
for (const { dialect, skip } of await testDialects()) {
  describe(`an import the bucket refuses half-way (${dialect})`, { skip: skip || bucketSkip }, () => {
    let h: Harness;
    let proxy: RefusingProxy;
    /** PUTs the bucket still accepts; every later one is refused. */
    let accepted = Number.POSITIVE_INFINITY;
    before(async () => {
      proxy = await refusingProxy((req) => req.method === 'PUT' && accepted-- <= 0);
      h = await startServer({ dialect, env: await bucketEnv(proxy.endpoint) });
    });
    after(async () => {
      await h?.close();
      await proxy?.close();
    });

    async function guideCount(): Promise<number> {
      const row = await h.store.db
        .selectFrom('guides')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    }

    it('two files written, the third refused: 500, the two deleted, no guide', async () => {
      const zip = await fourFiles();
      const guides = await guideCount();
      accepted = 2;
      const res = await uploadArchive(h.baseUrl, h.alice.writeKey, zip);
      assert.equal(res.status, 500, JSON.stringify(res.body));
      assert.ok(proxy.refused() > 0, 'the bucket refused a write');
      assert.deepEqual(await storedFiles(h), [], 'what was written is gone');
      assert.equal(await guideCount(), guides, 'no guide was made');

      accepted = Number.POSITIVE_INFINITY;
      const again = await uploadArchive(h.baseUrl, h.alice.writeKey, zip);
      assert.equal(again.status, 201, JSON.stringify(again.body));
      assert.equal((await storedFiles(h)).length, 4, 'the same archive imports whole once the bucket takes it');
    });
  });
}
