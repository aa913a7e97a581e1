import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { describe, it } from 'node:test';
import { MAX_IMAGE_BYTES } from '../../src/resources/media/media-upload.operations.ts';
import { KeptBodies } from '../../src/transports/kept-bodies.ts';
import { keptImageBodies } from '../../src/transports/upload-body.ts';
import { useServer } from '../helpers/api.ts';
import { testSetups } from '../helpers/blob-stores.ts';
import { newGuide } from '../helpers/fixtures.ts';
import { phoneJpeg } from '../helpers/images.ts';
import { uploadRaw } from '../helpers/uploads.ts';

describe('KeptBodies', () => {
  it('lends up to its count of buffers of its size, and lends a buffer given back again', () => {
    const kept = new KeptBodies(1000, 2);
    assert.equal(kept.take(1001), undefined, 'a body larger than its buffers');
    const first = kept.take(1000);
    const second = kept.take(10);
    assert.ok(first && second && first !== second);
    assert.equal(first.length, 1000);
    assert.equal(kept.take(10), undefined, 'every buffer lent');
    assert.equal(kept.lent, 2);
    kept.giveBack(first);
    assert.equal(kept.lent, 1);
    assert.equal(kept.take(500), first, 'the buffer given back');
  });
});

for (const { dialect, blobStore, skip, name } of await testSetups()) {
  describe(`raw photo bodies in kept buffers (${name})`, { skip }, () => {
    const suite = useServer({ dialect, blobStore, env: { RATE_LIMIT_UPLOADS_PER_MINUTE: '1000' } });
    const key = () => suite.h.alice.writeKey;
    const kept = keptImageBodies(MAX_IMAGE_BYTES);
    /** A photo of its own size and capture date, to tell whose bytes a row was made from. */
    const photo = (width: number, day: number) =>
      phoneJpeg({
        width,
        height: 200,
        orientation: 1,
        exif: { IFD0: { Artist: `Day ${day}` }, IFD2: { DateTimeOriginal: `2024:06:0${day} 10:00:00` } },
      });

    it('each upload decodes its own bytes, one after the other and at once, and gives its buffer back', async () => {
      const productId = await newGuide(suite.apis.rest, 'Kept bodies');
      // A larger photo first: the next, shorter one lands in the buffer that held it.
      for (const [width, day] of [
        [900, 1],
        [300, 2],
      ] as const) {
        const res = await uploadRaw(suite.h, key(), await photo(width, day), 'image/jpeg', { productId });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        assert.deepEqual([res.body.width, res.body.capturedOn], [width, `2024-06-0${day}`]);
        assert.equal(kept.lent, 0, 'given back once answered');
      }
      // More at once than there are kept buffers: the others read into buffers of their own.
      const sizes = [500, 700, 400, 600, 800];
      const answers = await Promise.all(
        sizes.map(async (width, i) =>
          uploadRaw(suite.h, key(), await photo(width, i + 3), 'image/jpeg', { productId }),
        ),
      );
      answers.forEach((res, i) => {
        assert.equal(res.status, 201, JSON.stringify(res.body));
        assert.deepEqual([res.body.width, res.body.capturedOn], [sizes[i], `2024-06-0${i + 3}`]);
      });
      assert.equal(kept.lent, 0);
    });

    it('a refused photo and a body cut short give their buffer back', async () => {
      const productId = await newGuide(suite.apis.rest, 'Kept bodies refused');
      const jpeg = await photo(600, 1);
      const broken = Buffer.concat([jpeg.subarray(0, 2000), Buffer.alloc(jpeg.length - 2000, 7)]);
      const refused = await uploadRaw(suite.h, key(), broken, 'image/jpeg', { productId });
      assert.equal(refused.status, 400, JSON.stringify(refused.body));
      assert.equal(kept.lent, 0, 'after a refusal');
      const url = new URL(`${suite.h.baseUrl}/media/upload?productId=${productId}`);
      await new Promise<void>((resolve, reject) => {
        const socket = connect(Number(url.port), url.hostname, () => {
          const head =
            `POST ${url.pathname}${url.search} HTTP/1.1\r\nhost: ${url.host}\r\nauthorization: Bearer ${key()}\r\n` +
            `content-type: image/jpeg\r\ncontent-length: ${jpeg.length}\r\n\r\n`;
          socket.write(head);
          socket.end(jpeg.subarray(0, jpeg.length >> 1));
        });
        socket.on('error', reject).on('close', () => resolve());
        socket.resume();
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(kept.lent, 0, 'after a body cut short');
      const next = await uploadRaw(suite.h, key(), jpeg, 'image/jpeg', { productId });
      assert.equal(next.status, 201, JSON.stringify(next.body));
    });
  });
}
