import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import sharp from 'sharp';
import { assertError, assertOk } from '../helpers/answers.ts';
import { apiFor, transports, useServer } from '../helpers/api.ts';
import { testSetups } from '../helpers/blob-stores.ts';
import { guideOf, newGuide } from '../helpers/fixtures.ts';
import { phoneJpeg, redLeftBlueRight } from '../helpers/images.ts';
import { fetchImage, storedFiles, uploadRaw } from '../helpers/uploads.ts';

/** list_media, update_media, reorder_media, delete_media and the guide thumbnail, over REST and MCP. */
for (const { dialect, blobStore, skip, name } of await testSetups()) {
  describe(`photo tools (${name})`, { skip }, () => {
    const suite = useServer({ dialect, blobStore, env: { RATE_LIMIT_UPLOADS_PER_MINUTE: '1000' } });

    async function photo(productId: string, bytes?: Buffer, fields: Record<string, unknown> = {}): Promise<any> {
      const res = await uploadRaw(suite.h, suite.h.alice.writeKey, bytes ?? (await phoneJpeg()), undefined, {
        productId,
        ...fields,
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body;
    }

    for (const t of transports) {
      describe(`over ${t}`, () => {
        const api = () => suite.apis[t];

        it('update_media: only sent fields change; null and "" clear; credit and caption stored as sent', async () => {
          const productId = await newGuide(api());
          const { mediaId } = await photo(productId);
          const sent = {
            mediaId,
            alt: 'A lake at dawn',
            caption: ' Dawn, before the ferry ',
            credit: 'Ana Trails',
            creditUrl: 'https://ana.example/portfolio',
            focalX: 0,
            focalY: 1,
            licence: 'CC BY 4.0',
            locationVerifiedBy: 'landmark',
            reviewNotes: 'Check the licence page',
            shows: { kind: 'spot', label: 'The lake' },
            sourcePageUrl: 'https://photos.example/lake',
            takenAt: { lat: 46.1, lon: 7.2, precision: 'geocode' },
            capturedOn: '2024-02-29',
          };
          const res = await api().call('update_media', sent);
          assertOk(res);
          assert.deepEqual(res.body, { ok: true, mediaId });
          let [row] = (await api().call('list_media', { productId })).body.media;
          const { mediaId: _m, ...fields } = sent;
          for (const [field, value] of Object.entries(fields)) assert.deepEqual(row[field], value, field);
          assertOk(
            await api().call('update_media', { mediaId, alt: null, caption: '', reviewNotes: '', takenAt: null }),
          );
          [row] = (await api().call('list_media', { productId })).body.media;
          assert.equal(row.alt, null);
          assert.equal(row.caption, null);
          assert.equal(row.reviewNotes, null);
          assert.equal(row.takenAt, null);
          assert.equal(row.credit, 'Ana Trails', 'fields not sent stay');
          assert.ok(row.updatedAt > row.createdAt, 'each edit moves updatedAt, even within one millisecond');
        });

        it('update_media refuses out-of-range focal points, unreal dates, unknown enums and fields', async () => {
          const productId = await newGuide(api());
          const { mediaId } = await photo(productId);
          assertError(await api().call('update_media', { mediaId, focalX: 1.5 }), 'invalid_request', 'focalX');
          assertError(await api().call('update_media', { mediaId, focalY: -0.1 }), 'invalid_request', 'focalY');
          assertError(await api().call('update_media', { mediaId, capturedOn: '2023-02-29' }), 'invalid_request');
          assertError(await api().call('update_media', { mediaId, locationVerifiedBy: 'gps' }), 'invalid_argument');
          assertError(await api().call('update_media', { mediaId, shows: { kind: 'sky' } }), 'invalid_argument');
          assertError(
            await api().call('update_media', { mediaId, takenAt: { lat: 91, lon: 0, precision: 'gps' } }),
            'invalid_request',
          );
          assertError(await api().call('update_media', { mediaId, credit: null }), 'invalid_argument');
          assertError(await api().call('update_media', { mediaId, colour: 'red' }), 'invalid_argument');
          assertError(await api().call('update_media', { mediaId, creditUrl: 'ftp://x.example' }), 'invalid_request');
          const http = await api().call('update_media', { mediaId, sourcePageUrl: 'http://photos.example/p' });
          assertOk(http);
          assert.match(http.body.warnings.join(' '), /http/);
          assertError(await api().call('update_media', { mediaId: 'med_missing', alt: 'x' }), 'not_found');
        });

        it('reorder_media moves a photo between neighbours; list_media filters by spot', async () => {
          const productId = await newGuide(api());
          const spot = await api().call('create_spot', { productId, name: 'Pier' });
          const a = await photo(productId);
          const b = await photo(productId);
          const c = await photo(productId, undefined, { spotId: spot.body.spotId });
          const moved = await api().call('reorder_media', { mediaId: c.mediaId, order: 1.5 });
          assertOk(moved);
          assert.deepEqual(moved.body, { ok: true, mediaId: c.mediaId, order: 1.5 });
          const list = await api().call('list_media', { productId });
          assert.deepEqual(
            list.body.media.map((m: any) => [m.mediaId, m.order]),
            [
              [a.mediaId, 1],
              [c.mediaId, 1.5],
              [b.mediaId, 2],
            ],
          );
          const bySpot = await api().call('list_media', { productId, spotId: spot.body.spotId });
          assert.deepEqual(
            bySpot.body.media.map((m: any) => m.mediaId),
            [c.mediaId],
          );
          assertError(await api().call('reorder_media', { mediaId: a.mediaId }), 'invalid_argument');
          assertError(await api().call('reorder_media', { mediaId: a.mediaId, order: '2' }), 'invalid_argument');
        });

        it('update_guide.thumbnailMediaId: a 4:5 crop around the focal point; clearThumbnail removes its file', async () => {
          const productId = await newGuide(api());
          const redBlue = await redLeftBlueRight();
          const { mediaId } = await photo(productId, redBlue, { focalX: 1 });
          const set = await api().call('update_guide', { productId, thumbnailMediaId: mediaId });
          assertOk(set);
          const url = set.body.thumbnailUrl as string;
          assert.match(url, /\/media\/blob_[\w-]+\.webp$/);
          const image = await fetchImage(url);
          assert.equal(image.status, 200);
          const meta = await sharp(image.bytes).metadata();
          assert.deepEqual([meta.width, meta.height], [160, 200], 'the largest 4:5 crop, never enlarged');
          const { channels } = await sharp(image.bytes).stats();
          assert.ok(channels[2]!.mean > 150 && channels[0]!.mean < 60, 'cut from the right: blue');
          assert.equal((await guideOf(api(), productId)).thumbnailUrl, url);

          // Setting another thumbnail replaces the file; clearing removes it.
          const second = await photo(productId);
          const again = await api().call('update_guide', { productId, thumbnailMediaId: second.mediaId });
          assert.notEqual(again.body.thumbnailUrl, url);
          assert.equal((await fetchImage(url)).status, 404, 'the replaced thumbnail file is gone');
          const cleared = await api().call('update_guide', { productId, clearThumbnail: true });
          assert.equal(cleared.body.thumbnailUrl, null);
          assert.equal((await fetchImage(again.body.thumbnailUrl)).status, 404);
        });

        it("moving the photo's focal point re-cuts the guide's thumbnail; other photos' points leave it", async () => {
          const productId = await newGuide(api());
          const redBlue = await redLeftBlueRight();
          const { mediaId } = await photo(productId, redBlue, { focalX: 1 });
          const other = await photo(productId);
          const set = await api().call('update_guide', { productId, thumbnailMediaId: mediaId });
          const before = set.body.thumbnailUrl as string;
          assertOk(await api().call('update_media', { mediaId: other.mediaId, focalX: 0 }));
          assert.equal((await guideOf(api(), productId)).thumbnailUrl, before, 'another photo: the thumbnail stays');
          assertOk(await api().call('update_media', { mediaId, caption: 'Lake Bled' }));
          assert.equal((await guideOf(api(), productId)).thumbnailUrl, before, 'no focal change: no re-cut');

          assertOk(await api().call('update_media', { mediaId, focalX: 0 }));
          const after = (await guideOf(api(), productId)).thumbnailUrl as string;
          assert.notEqual(after, before);
          assert.equal((await fetchImage(before)).status, 404, 'the old crop is gone');
          const { channels } = await sharp((await fetchImage(after)).bytes).stats();
          assert.ok(channels[0]!.mean > 150 && channels[2]!.mean < 60, 'cut from the left now: red');
        });

        it("thumbnailMediaId of another guide's photo or a missing one is not_found and stores nothing", async () => {
          const productId = await newGuide(api());
          const other = await newGuide(api());
          const foreign = await photo(other);
          const before = await storedFiles(suite.h);
          assertError(await api().call('update_guide', { productId, thumbnailMediaId: foreign.mediaId }), 'not_found');
          assertError(await api().call('update_guide', { productId, thumbnailMediaId: 'med_nope' }), 'not_found');
          assert.deepEqual(await storedFiles(suite.h), before);
          assert.equal((await guideOf(api(), productId)).thumbnailUrl, null);
        });

        it('delete_media removes the row, its files and a thumbnail made from it; photoCount follows', async () => {
          const productId = await newGuide(api());
          const kept = await photo(productId);
          const gone = await photo(productId);
          assert.equal((await guideOf(api(), productId)).photoCount, 2);
          const thumb = await api().call('update_guide', { productId, thumbnailMediaId: gone.mediaId });
          const res = await api().call('delete_media', { mediaId: gone.mediaId });
          assertOk(res);
          assert.deepEqual(res.body, { ok: true, mediaId: gone.mediaId, deleted: true });
          for (const url of Object.values(gone.urls as Record<string, string>)) {
            assert.equal((await fetchImage(url)).status, 404, url);
          }
          assert.equal((await fetchImage(thumb.body.thumbnailUrl)).status, 404);
          const after = await guideOf(api(), productId);
          assert.equal(after.thumbnailUrl, null);
          assert.equal(after.photoCount, 1);
          assert.equal((await fetchImage(kept.urls.small)).status, 200);
          assertError(await api().call('delete_media', { mediaId: gone.mediaId }), 'not_found');
        });

        it('a read key lists but cannot change; another creator sees not_found', async () => {
          const productId = await newGuide(api());
          const { mediaId } = await photo(productId);
          const { h } = suite;
          const reader = apiFor(h, t, h.alice.readKey);
          const other = apiFor(h, t, h.bob.writeKey);
          try {
            assertOk(await reader.call('list_media', { productId }));
            assertError(await reader.call('update_media', { mediaId, alt: 'x' }), 'api_scope_required');
            assertError(await other.call('delete_media', { mediaId }), 'not_found');
            assertError(await other.call('list_media', { productId }), 'not_found');
          } finally {
            await reader.close();
            await other.close();
          }
        });
      });
    }
  });
}
