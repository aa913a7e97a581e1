import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertOk } from '../helpers/answers.ts';
import { type Api, apiFor, transports } from '../helpers/api.ts';
import { bucketEnv, testBlobStores } from '../helpers/blob-stores.ts';
import { browserSkip, launchBrowser } from '../helpers/browser.ts';
import { testDialects } from '../helpers/dialects.ts';
import { newGuide } from '../helpers/fixtures.ts';
import { type Harness, startServer } from '../helpers/harness.ts';
import { flat } from '../helpers/images.ts';
import { openPage, putOnSale, saleGuide } from '../helpers/sale-guide.ts';
import { fetchImage, uploadRaw } from '../helpers/uploads.ts';

const bucketSkip = testBlobStores().includes('s3') ? false : 'TEST_BLOB_STORES leaves s3 out';

/** Every address on a page that names a photo file (src, srcset, og:image). */
function photoAddresses(html: string): string[] {
  return [...new Set(Array.from(html.matchAll(/https?:\/\/[^\s"',]+\/media\/[A-Za-z0-9_.-]+/g), (m) => m[0]))];
}

/**
 * With S3_PUBLIC_URL, buyers fetch photo files from the bucket's own addresses: every URL the API
 * answers and every image of the buyers' page points there, the bucket serves the same bytes as
 * /media with an immutable Cache-Control and an ETag, and the page's policy lets the images in.
 */
for (const { dialect, skip } of await testDialects()) {
  describe(`photos served from the bucket's own addresses (${dialect})`, { skip: skip || bucketSkip }, () => {
    let h: Harness;
    let mediaUrl: string;
    const apis = {} as Record<(typeof transports)[number], Api>;
    before(async () => {
      const env = await bucketEnv();
      h = await startServer({ dialect, env: { ...env, S3_PUBLIC_URL: `${env.S3_ENDPOINT}/${env.S3_BUCKET}/` } });
      mediaUrl = `${env.S3_ENDPOINT}/${env.S3_BUCKET}/media/`;
      for (const t of transports) apis[t] = apiFor(h, t, h.alice.writeKey);
    });
    after(async () => {
      for (const t of transports) await apis[t]?.close();
      await h?.close();
    });

    it('the uploads answer bucket addresses that serve the same bytes as /media, cached for good', async () => {
      assert.equal(h.config.mediaUrl, mediaUrl);
      const productId = await newGuide(apis.rest, 'Bucket addresses');
      const res = await uploadRaw(h, h.alice.writeKey, await flat(1600, 1000).jpeg().toBuffer(), 'image/jpeg', {
        productId,
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      for (const [size, url] of Object.entries(res.body.urls as Record<string, string>)) {
        assert.ok(url.startsWith(mediaUrl), `${size}: ${url}`);
        const key = url.slice(mediaUrl.length);
        const direct = await fetchImage(url);
        assert.equal(direct.status, 200, url);
        assert.equal(direct.headers.get('cache-control'), 'public, max-age=31536000, immutable');
        const ext = size === 'original' ? 'jpg' : 'webp';
        const here = await fetchImage(`${h.origin}/media/${key}.${ext}`);
        assert.equal(here.status, 200);
        assert.ok(direct.bytes.equals(here.bytes), `${size}: the bucket and /media serve the same bytes`);
        assert.equal(direct.headers.get('content-type'), here.headers.get('content-type'));
        const etag = direct.headers.get('etag') as string;
        assert.equal((await fetchImage(url, { 'if-none-match': etag })).status, 304);
      }
      for (const t of transports) {
        const listed = await apis[t].call('list_media', { productId });
        assert.deepEqual(listed.body.media[0].urls, res.body.urls, t);
      }
    });

    for (const t of transports) {
      it(`${t}: thumbnails and chapter covers point at the bucket; a deleted photo's addresses are gone, a cleared thumbnail's stays for undo`, async () => {
        const api = apis[t];
        const productId = await newGuide(api, `Bucket thumbnail over ${t}`);
        const photo = await uploadRaw(h, h.alice.writeKey, await flat(900, 600).jpeg().toBuffer(), 'image/jpeg', {
          productId,
        });
        assertOk(await api.call('update_guide', { productId, thumbnailMediaId: photo.body.mediaId }));
        const thumbnailUrl = (await api.call('get_guide', { productId })).body.thumbnailUrl as string;
        assert.ok(thumbnailUrl.startsWith(mediaUrl), thumbnailUrl);
        assert.equal((await fetchImage(thumbnailUrl)).status, 200);

        const image = await uploadRaw(h, h.alice.writeKey, await flat(900, 600).png().toBuffer(), 'image/png', {
          productId,
          target: 'blob',
        });
        const chapter = await api.call('create_chapter', {
          productId,
          name: 'Lakes',
          kind: 'chapter',
          coverStorageId: image.body.storageId,
        });
        assertOk(chapter, 201);
        assert.equal(chapter.body.coverUrl, image.body.urls.large);
        assert.ok(chapter.body.coverUrl.startsWith(mediaUrl));

        const cleared = await api.call('update_guide', { productId, clearThumbnail: true });
        assertOk(cleared);
        assertOk(await api.call('delete_media', { mediaId: photo.body.mediaId }));
        for (const url of Object.values(photo.body.urls as Record<string, string>)) {
          assert.equal((await fetchImage(url)).status, 404, `no release showed it: gone at once, ${url}`);
        }
        // Clearing the thumbnail can be undone, so its file stays (until the history entry ages out).
        assert.equal((await fetchImage(thumbnailUrl)).status, 200, 'kept for an undo');
        const changes = await api.call('list_changes', { productId, limit: 2 });
        const clearing = changes.body.changes.find((c: any) => c.operation === 'update_guide');
        assertOk(await api.call('undo_changes', { productId, changeIds: [clearing.changeId] }));
        assert.equal((await api.call('get_guide', { productId })).body.thumbnailUrl, thumbnailUrl);
      });
    }

    it("the buyers' page shows every photo from the bucket, its policy allows the bucket, and a release keeps paths", async () => {
      const g = await saleGuide(h, apis.rest, 'Bucket lakes');
      await putOnSale(h, g.productId);
      const page = await openPage(g.salesPageUrl);
      assert.equal(page.status, 200);
      const addresses = photoAddresses(page.text);
      assert.ok(addresses.length >= 9, `hero, gallery and spot photo in three sizes: ${addresses}`);
      for (const address of addresses) {
        assert.ok(address.startsWith(mediaUrl), address);
        assert.equal((await fetchImage(address)).status, 200, address);
      }
      assert.doesNotMatch(page.text, /["\s,]\/media\//, 'no photo is left at a path of this service');
      assert.match(page.text, new RegExp(`<meta property="og:image" content="${mediaUrl}`));
      const policy = page.headers.get('content-security-policy') ?? '';
      assert.match(policy, new RegExp(`img-src 'self' ${new URL(mediaUrl).origin}(;|$)`));
      // The release keeps served paths: another S3_PUBLIC_URL later moves every page with it.
      const release = await h.store.db.selectFrom('releases').select('snapshot').executeTakeFirstOrThrow();
      assert.doesNotMatch(String(release.snapshot), new RegExp(new URL(mediaUrl).host));
      assert.match(String(release.snapshot), /"\/media\/[A-Za-z0-9_-]+\.webp"/);
    });

    it("Chromium loads every photo of the buyers' page from the bucket, with no refusal", {
      skip: browserSkip(),
    }, async () => {
      const g = await saleGuide(h, apis.rest, 'Bucket lakes in a browser');
      await putOnSale(h, g.productId);
      const browser = await launchBrowser();
      try {
        const b = await browser.newPage();
        await b.page.setViewportSize({ width: 390, height: 844 });
        assert.equal((await b.page.goto(g.salesPageUrl, { waitUntil: 'load' }))?.status(), 200);
        await b.page.locator('img').last().scrollIntoViewIfNeeded();
        await b.page.waitForFunction(() =>
          [...(globalThis as any).document.images].every((img: any) => img.complete && img.naturalWidth > 0),
        );
        const photos = b.requests.filter((r) => r.includes('/media/'));
        assert.ok(photos.length >= 3, photos.join(' '));
        for (const r of photos) assert.ok(r.startsWith(mediaUrl), `${r} came from the bucket`);
        assert.deepEqual(b.outside, []);
        assert.deepEqual(b.errors, [], 'no image refused by the policy, no failed request');
        await b.screenshot('buyers-page-bucket-photos');
      } finally {
        await browser.close();
      }
    });
  });
}
