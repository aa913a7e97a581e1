import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { sweepOrphanFiles } from '../../src/resources/media/index.ts';
import { adminJson } from '../helpers/admin-cli.ts';
import { assertOk } from '../helpers/answers.ts';
import { apiFor, transports, useServer } from '../helpers/api.ts';
import { testSetups } from '../helpers/blob-stores.ts';
import type { Harness } from '../helpers/harness.ts';
import { flat } from '../helpers/images.ts';
import { openPage, photo, putOnSale, saleGuide } from '../helpers/sale-guide.ts';

/** Every photo file a buyers' page shows (src, srcset, og:image), as paths. */
function imagePaths(html: string): string[] {
  return [...new Set(Array.from(html.matchAll(/\/media\/[A-Za-z0-9_-]+\.[a-z]+/g), (m) => m[0]))];
}

/** Each path's status and a hash of its bytes. */
async function served(h: Harness, paths: readonly string[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const path of paths) {
    const res = await fetch(`${h.origin}${path}`);
    const bytes = Buffer.from(await res.arrayBuffer());
    out[path] = `${res.status} ${createHash('sha256').update(bytes).digest('hex')}`;
  }
  return out;
}

/** No release row names a missing file: every key release_files holds is in the blob store. */
async function assertReleasesWhole(h: Harness): Promise<void> {
  const rows = await h.store.db.selectFrom('release_files').select('blob_key').execute();
  assert.ok(rows.length > 0);
  for (const { blob_key } of rows) assert.ok(await h.blobs.get(blob_key), `release file ${blob_key} is stored`);
}

/**
 * A moment after which every file written from now on counts as younger: the next whole second,
 * since a bucket keeps when an object was written to the second.
 */
async function ageLine(): Promise<number> {
  // Later than the last write, by a clock of milliseconds: the test's bucket runs in this process.
  await new Promise((resolve) => setTimeout(resolve, 5));
  const line = Date.now();
  await new Promise((resolve) => setTimeout(resolve, 1000 - (line % 1000) + 20));
  return line;
}

for (const { dialect, blobStore, skip, name } of await testSetups()) {
  describe(`files a release shows outlive the rows that named them (${name})`, { skip }, () => {
    const suite = useServer({ dialect, blobStore, env: { RATE_LIMIT_UPLOADS_PER_MINUTE: '1000' } });

    for (const t of transports) {
      it(`${t}: deleting the hero and replacing or clearing the thumbnail keep every image buyers see`, async () => {
        const h = suite.h;
        const api = suite.apis[t];
        const g = await saleGuide(h, suite.apis.rest, `Lakes kept over ${t}`);
        assertOk(await api.call('update_guide', { productId: g.productId, thumbnailMediaId: g.hero }));
        await putOnSale(h, g.productId);
        const page = await openPage(g.salesPageUrl);
        assert.equal(page.status, 200);
        const thumbnail = (await api.call('get_guide', { productId: g.productId })).body.thumbnailUrl as string;
        const paths = [...imagePaths(page.text), new URL(thumbnail).pathname];
        assert.ok(paths.length >= 10, `hero, gallery, spot photo and thumbnail: ${paths}`);
        const before = await served(h, paths);
        assert.ok(Object.values(before).every((s) => s.startsWith('200 ')));

        // Replace the thumbnail, then clear it: the first one is in the release, the second never was.
        assertOk(await api.call('update_guide', { productId: g.productId, thumbnailMediaId: g.galleryPhoto }));
        const second = (await api.call('get_guide', { productId: g.productId })).body.thumbnailUrl as string;
        assertOk(await api.call('update_guide', { productId: g.productId, clearThumbnail: true }));
        assertOk(await api.call('delete_media', { mediaId: g.hero }));
        assertOk(await api.call('delete_media', { mediaId: g.galleryPhoto }));

        assert.deepEqual(await served(h, paths), before, 'the release buyers bought is whole');
        const livePage = (await api.call('get_sales_page', { productId: g.productId })).body.live;
        assert.equal(livePage.heroMediaId, g.hero, 'the live page still shows the deleted hero');
        assert.equal((await fetch(second)).status, 404, 'a thumbnail no release showed goes at once');
        assert.deepEqual(await openPage(g.salesPageUrl).then((p) => p.text), page.text);

        // A publish without them: the page moves on, and the first release keeps its files.
        const publisher = apiFor(h, t, h.alice.publishKey);
        assertOk(await publisher.call('publish_changes', { productId: g.productId }));
        await publisher.close();
        const republished = await openPage(g.salesPageUrl);
        assert.notEqual(republished.text, page.text);
        // Release 1 still exists, so its files are kept; buyers see release 2, so /media serves only its files.
        await assertReleasesWhole(h);
        const live = new Set(imagePaths(republished.text));
        const after = await served(h, paths);
        for (const path of paths) {
          if (live.has(path)) assert.equal(after[path], before[path], `${path} is on the live page`);
          else assert.match(after[path] as string, /^404 /, `${path} is only in release 1: stored, not served`);
        }
        assert.ok(
          paths.some((path) => !live.has(path)),
          'the deleted hero left the live page',
        );
      });

      it(`${t}: a photo no release showed is served no more once deleted`, async () => {
        const h = suite.h;
        const api = suite.apis[t];
        const g = await saleGuide(h, suite.apis.rest, `Unpublished photo over ${t}`);
        await putOnSale(h, g.productId);
        const mediaId = await photo(h, g.productId, { credit: 'Late Shot', colour: '#224466' });
        const urls = Object.values(
          (await api.call('list_media', { productId: g.productId })).body.media.find(
            (m: { mediaId: string }) => m.mediaId === mediaId,
          ).urls,
        ) as string[];
        for (const url of urls) assert.equal((await fetch(url)).status, 200);
        assertOk(await api.call('delete_media', { mediaId }));
        for (const url of urls) assert.equal((await fetch(url)).status, 404, url);
      });
    }

    it('the sweep removes old files no row or release names, never a young one or a named one', async () => {
      const h = suite.h;
      const g = await saleGuide(h, suite.apis.rest, 'Swept');
      await putOnSale(h, g.productId);
      assertOk(await suite.apis.rest.call('delete_media', { mediaId: g.hero }));
      const blobs = h.blobs;
      const bytes = await flat(64, 64).jpeg().toBuffer();
      // What a crash between a file's write and its row's commit leaves: files no row names. The
      // sweep removes those written before the line it is given (an hour ago when it runs by itself).
      const old = await blobs.put('orphanOld0001', bytes, 'image/jpeg');
      const line = await ageLine();
      const young = await blobs.put('orphanYoung001', bytes, 'image/jpeg');
      // Every named file is as old as the orphan: the sweep goes by names, never by age alone.
      const named = await h.store.db.selectFrom('release_files').select('blob_key').limit(1).executeTakeFirstOrThrow();

      const result = await sweepOrphanFiles(h.store.db, blobs, line);
      const seen: Record<string, number> = {};
      for await (const blob of blobs.list()) if (blob.key.startsWith('orphan')) seen[blob.key] = blob.modifiedMs - line;
      assert.ok(result.removed.includes(old.key), `the old orphan is removed (${JSON.stringify({ seen, result })})`);
      assert.ok(!result.removed.includes(young.key), 'a young file may belong to a write about to commit');
      assert.ok(!result.removed.includes(named.blob_key));
      assert.equal(await blobs.get(old.key), undefined);
      assert.ok(await blobs.get(young.key));
      for (const row of await h.store.db.selectFrom('media').select('files').execute()) {
        for (const file of Object.values(JSON.parse(row.files) as Record<string, { key: string }>)) {
          assert.ok(await blobs.get(file.key), `the file of a row survives: ${file.key}`);
        }
      }
      await assertReleasesWhole(h);
      const page = await openPage(g.salesPageUrl);
      for (const status of Object.values(await served(h, imagePaths(page.text)))) assert.match(status, /^200 /);

      if (dialect === 'sqlite') {
        // The operator's command does the same on the server's store.
        const stray = await blobs.put('orphanCli00001', bytes, 'image/jpeg');
        const swept = await adminJson<{ removed: string[] }>(
          { DATA_DIR: h.config.dataDir, ...h.blobEnv },
          'media',
          'sweep',
          '--older-than-minutes',
          '0',
        );
        assert.ok(swept.removed.includes(stray.key));
        assert.equal(await blobs.get(stray.key), undefined);
        await assertReleasesWhole(h);
      }
    });
  });
}
