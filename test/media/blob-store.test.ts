import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buffer, text } from 'node:stream/consumers';
import { after, describe, it } from 'node:test';
import { type BlobInfo, type BlobStore, newBlobKey, storeBlobsThen } from '../../src/resources/media/blob-store.ts';
import { LocalBlobStore } from '../../src/resources/media/local-blob-store.ts';
import { RenditionWriter } from '../../src/resources/media/media-files.ts';
import { S3BlobStore } from '../../src/resources/media/s3-blob-store.ts';
import { freshBucket, TEST_CREDENTIALS, type TestBlobStore, testBlobStores } from '../helpers/blob-stores.ts';

const roots: string[] = [];
const buckets: S3BlobStore[] = [];
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
  for (const bucket of buckets) bucket.close();
});

async function freshLocalStore(): Promise<LocalBlobStore> {
  const root = mkdtempSync(join(tmpdir(), 'blob-store-test-'));
  roots.push(root);
  return LocalBlobStore.open(join(root, 'media'));
}

/** A store in a fresh bucket of the local S3-compatible server, under the default prefix. */
async function freshBucketStore(options: { listPageSize?: number } = {}): Promise<S3BlobStore> {
  const { endpoint, bucket } = await freshBucket();
  const store = new S3BlobStore(
    { bucket, endpoint, region: 'us-east-1', credentials: TEST_CREDENTIALS, forcePathStyle: true, keyPrefix: 'media/' },
    options,
  );
  buckets.push(store);
  return store;
}

const freshStores: Record<TestBlobStore, () => Promise<BlobStore>> = { disk: freshLocalStore, s3: freshBucketStore };

async function keysOf(store: BlobStore): Promise<string[]> {
  const keys: string[] = [];
  for await (const blob of store.list()) keys.push(blob.key);
  return keys.sort();
}

/** Every file under the store, relative paths, temporary folder included. */
function filesUnder(store: LocalBlobStore): string[] {
  return readdirSync(store.root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(store.root.length + 1))
    .sort();
}

for (const kind of testBlobStores()) {
  const freshStore = freshStores[kind];

  describe(`every blob store keeps its promises (${kind})`, () => {
    it('stores and reads back bytes with their content type, size and a content-hash ETag', async () => {
      const store = await freshStore();
      const key = newBlobKey();
      const bytes = Buffer.from('a photo, in spirit');
      const info = await store.put(key, bytes, 'image/webp');
      const sha = createHash('sha256').update(bytes).digest('base64url');
      assert.deepEqual(info, { key, contentType: 'image/webp', etag: `"${sha}"`, size: bytes.length });
      assert.deepEqual(await store.get(key), { ...info, bytes });
      const opened = await store.open(key);
      assert.equal(opened?.etag, info.etag);
      assert.equal(await text(opened!.stream), 'a photo, in spirit');
      // The same bytes under another key have the same ETag; other bytes another.
      assert.equal((await store.put(newBlobKey(), bytes, 'image/webp')).etag, info.etag);
      assert.notEqual((await store.put(newBlobKey(), Buffer.from('other'), 'image/webp')).etag, info.etag);
    });

    it('makes unguessable URL-safe keys and refuses keys that could leave its folder', async () => {
      const keys = new Set(Array.from({ length: 1000 }, newBlobKey));
      assert.equal(keys.size, 1000);
      for (const key of keys) assert.match(key, /^[A-Za-z0-9_-]{20,}$/);
      const store = await freshStore();
      for (const bad of ['../../etc/passwd', 'a/b/c/d/e/f', 'short', '', 'with space in it', `${'x'.repeat(129)}`]) {
        await assert.rejects(store.put(bad, Buffer.from('x'), 'text/plain'), TypeError, bad);
        await assert.rejects(store.get(bad), TypeError, bad);
      }
    });

    it('answers undefined for a missing key; deleting one is no error', async () => {
      const store = await freshStore();
      const key = newBlobKey();
      assert.equal(await store.get(key), undefined);
      assert.equal(await store.open(key), undefined);
      await store.delete(key);
      await store.put(key, Buffer.from('x'), 'image/jpeg');
      assert.deepEqual(await keysOf(store), [key]);
      await store.delete(key);
      assert.equal(await store.get(key), undefined);
      assert.equal(await store.open(key), undefined);
      await store.delete(key);
      assert.deepEqual(await keysOf(store), []);
    });

    it('keeps large files byte for byte, read whole and streamed', async () => {
      const store = await freshStore();
      const bytes = randomBytes(3 * 1024 * 1024 + 17);
      const key = newBlobKey();
      await store.put(key, bytes, 'image/jpeg');
      assert.ok((await store.get(key))?.bytes.equals(bytes));
      const opened = await store.open(key);
      assert.equal(opened?.size, bytes.length);
      assert.ok((await buffer(opened!.stream)).equals(bytes));
    });

    it('lists every key with when it was written', async () => {
      const store = await freshStore();
      const started = Math.floor(Date.now() / 1000) * 1000;
      const keys = await Promise.all(
        Array.from({ length: 12 }, async () => (await store.put(newBlobKey(), Buffer.from('x'), 'image/png')).key),
      );
      const listed: { key: string; modifiedMs: number }[] = [];
      for await (const blob of store.list()) listed.push(blob);
      assert.deepEqual(listed.map((b) => b.key).sort(), keys.sort());
      for (const blob of listed)
        assert.ok(blob.modifiedMs >= started && blob.modifiedMs <= Date.now(), String(blob.modifiedMs));
    });
  });

  describe(`storeBlobsThen (${kind})`, () => {
    const files = [
      { bytes: Buffer.from('original'), contentType: 'image/jpeg' },
      { bytes: Buffer.from('large'), contentType: 'image/webp' },
    ];

    it('writes the files, then commits with what was stored', async () => {
      const store = await freshStore();
      const stored = await storeBlobsThen(store, files, async (blobs: BlobInfo[]) => blobs);
      assert.deepEqual(
        stored.map((b) => b.contentType),
        ['image/jpeg', 'image/webp'],
      );
      assert.equal((await store.get(stored[1]!.key))?.bytes.toString(), 'large');
    });

    it('deletes every file written when the commit fails, and rethrows', async () => {
      const store = await freshStore();
      let keys: string[] = [];
      await assert.rejects(
        storeBlobsThen(store, files, async (blobs) => {
          keys = blobs.map((b) => b.key);
          throw new Error('the row transaction failed');
        }),
        /the row transaction failed/,
      );
      assert.equal(keys.length, 2);
      for (const key of keys) assert.equal(await store.get(key), undefined);
      assert.deepEqual(await keysOf(store), []);
    });

    it('deletes the files written when one write fails, and never commits', async () => {
      const store = await freshStore();
      let committed = false;
      await assert.rejects(
        storeBlobsThen(store, [...files, { key: '../bad', bytes: Buffer.from('x'), contentType: 'x/y' }], async () => {
          committed = true;
        }),
        TypeError,
      );
      assert.equal(committed, false);
      assert.deepEqual(await keysOf(store), []);
    });
  });
  describe(`RenditionWriter (${kind})`, () => {
    const rendition = (text: string) => ({ bytes: Buffer.from(text), contentType: 'image/webp', width: 4, height: 3 });

    it('writes each file as it is handed over; discard deletes every one, also one still being written', async () => {
      const store = await freshStore();
      const writer = new RenditionWriter(store);
      const small = await writer.keep('small', rendition('small'));
      assert.deepEqual(
        { ...small, key: typeof small.key },
        { key: 'string', contentType: 'image/webp', width: 4, height: 3, bytes: 5 },
      );
      assert.equal((await store.get(small.key))?.bytes.toString(), 'small');
      const large = writer.keep('large', rendition('large')); // not awaited: under way when the upload fails
      await writer.discard();
      assert.equal((await store.get((await large).key))?.bytes, undefined);
      assert.deepEqual(await keysOf(store), []);
      // A file handed over after the upload was given up is not written at all.
      await assert.rejects(writer.keep('original', rendition('original')), /given up/);
      assert.deepEqual(await keysOf(store), []);
    });
  });
}

describe('LocalBlobStore', () => {
  it('leaves no file behind once every key is deleted', async () => {
    const store = await freshLocalStore();
    const key = newBlobKey();
    await store.put(key, Buffer.from('x'), 'image/jpeg');
    assert.equal(await store.delete(key), true);
    assert.equal(await store.delete(key), false);
    assert.deepEqual(filesUnder(store), []);
  });

  it('writes through a temporary file: nothing is left behind, a file without its sidecar is not served', async () => {
    const store = await freshLocalStore();
    const key = newBlobKey();
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.put(key, Buffer.alloc(100_000, i), 'image/png')));
    const stored = await store.get(key);
    // Twenty writers raced on one key: the file is one of them whole, never a mix.
    assert.equal(stored?.bytes.length, 100_000);
    assert.ok(stored!.bytes.every((b) => b === stored!.bytes[0]));
    assert.deepEqual(filesUnder(store), [`${key.slice(-2)}/${key}`, `${key.slice(-2)}/${key}.json`]);
    // A crash between the file and its sidecar: the file is there, but not served.
    const orphan = newBlobKey();
    await store.put(orphan, Buffer.from('x'), 'image/png');
    rmSync(join(store.root, orphan.slice(-2), `${orphan}.json`));
    assert.equal(await store.get(orphan), undefined);
  });

  it('clears temporary files a crash left behind, not ones being written now', async () => {
    const store = await freshLocalStore();
    const root = store.root;
    writeFileSync(join(root, '.tmp', 'old'), 'half a file');
    utimesSync(join(root, '.tmp', 'old'), new Date(Date.now() - 2 * 3600_000), new Date(Date.now() - 2 * 3600_000));
    writeFileSync(join(root, '.tmp', 'new'), 'being written');
    assert.deepEqual(await store.removeLeftovers(Date.now() - 3600_000), { removed: 1, young: 1 });
    assert.deepEqual(readdirSync(join(root, '.tmp')), ['new']);
  });
});
