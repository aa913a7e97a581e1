import assert from 'node:assert/strict';
import { request } from 'node:http';
import { connect } from 'node:net';
import { describe, it } from 'node:test';
import exifr from 'exifr';
import { assertError, assertOk } from '../helpers/answers.ts';
import { useServer } from '../helpers/api.ts';
import { testSetups } from '../helpers/blob-stores.ts';
import { newGuide } from '../helpers/fixtures.ts';
import { assertRefusalHeaders } from '../helpers/http.ts';
import { flat, heicStart, metadataContainers, phoneJpeg, pngBomb } from '../helpers/images.ts';
import { fetchImage, storedFiles, uploadForm, uploadRaw } from '../helpers/uploads.ts';

const MIB = 1024 * 1024;

/** REST only: the uploads are not MCP tools. Every refusal answers the envelope and writes nothing. */
for (const { dialect, blobStore, skip, name } of await testSetups()) {
  describe(`upload_media and upload_media_batch (${name})`, { skip }, () => {
    const suite = useServer({ dialect, blobStore, env: { RATE_LIMIT_UPLOADS_PER_MINUTE: '1000' } });
    const key = () => suite.h.alice.writeKey;
    const guide = () => newGuide(suite.apis.rest, 'Photo guide');

    it('raw bytes: 201 with the row, EXIF date and GPS read, the author only suggested, never stored as credit', async () => {
      const productId = await guide();
      const res = await uploadRaw(suite.h, key(), await phoneJpeg(), 'image/jpeg', { productId });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const row = res.body;
      assert.match(row.mediaId, /^med_/);
      assert.equal(row.productId, productId);
      assert.deepEqual([row.width, row.height], [200, 300], 'orientation applied');
      assert.equal(row.capturedOn, '2024-06-03');
      assert.deepEqual(row.takenAt, { lat: -46.5, lon: -11.76, precision: 'gps' });
      assert.equal(row.credit, null, 'the EXIF artist is never stored as the credit');
      assert.equal(row.suggestedCredit, 'Ana Trails');
      assert.match(row.warnings.join(' '), /Ana Trails.*nothing was stored as the credit/);
      assert.equal(row.order, 1);
      assert.deepEqual(Object.keys(row.urls), ['original', 'large', 'medium', 'small']);
    });

    it('stored files carry no EXIF and no GPS: read back through their URLs with exifr, without a key', async () => {
      const productId = await guide();
      const res = await uploadRaw(suite.h, key(), await phoneJpeg(), 'image/jpeg', { productId });
      assert.equal(res.status, 201);
      for (const [size, url] of Object.entries(res.body.urls as Record<string, string>)) {
        const image = await fetchImage(url);
        assert.equal(image.status, 200, size);
        assert.equal(await exifr.gps(image.bytes).catch(() => undefined), undefined, `${size} has no GPS`);
        assert.equal(await exifr.parse(image.bytes).catch(() => undefined), undefined, `${size} has no EXIF`);
        assert.deepEqual(metadataContainers(image.bytes), [], `${size} has no metadata block`);
        assert.equal(image.headers.get('cache-control'), 'public, max-age=31536000, immutable');
        const etag = image.headers.get('etag');
        assert.ok(etag?.startsWith('"'));
        assert.equal((await fetchImage(url, { 'if-none-match': etag as string })).status, 304);
      }
      assert.equal(res.body.urls.original.endsWith('.jpg'), true);
      assert.equal(res.body.urls.large.endsWith('.webp'), true);
    });

    it('a guessed or mistyped image address is 404, and a served name needs its own extension', async () => {
      const productId = await guide();
      const res = await uploadRaw(suite.h, key(), await phoneJpeg(), 'image/jpeg', { productId });
      const url = res.body.urls.original as string;
      assert.equal((await fetchImage(url.replace(/\.jpg$/, '.png'))).status, 404);
      // Another id of the same shape: its first characters changed (ids are base64url, so "-" and "_" occur).
      const guessed = url.replace(/blob_[\w-]{4}/, (found) => (found === 'blob_AAAA' ? 'blob_BBBB' : 'blob_AAAA'));
      assert.notEqual(guessed, url);
      assert.equal((await fetchImage(guessed)).status, 404);
      assert.equal((await fetchImage(`${suite.h.origin}/media/..%2F..%2Fcreator-api.sqlite`)).status, 404);
    });

    it('multipart: productId and metadata as form fields, stored exactly as sent; the sent capture date wins', async () => {
      const productId = await guide();
      const res = await uploadForm(suite.h, key(), '/media/upload', [{ bytes: await phoneJpeg(), name: 'lake.jpg' }], {
        productId,
        credit: '  Ana Trails / Studio  ',
        caption: 'Dawn at the lake',
        focalX: '0.25',
        capturedOn: '2024-06-02',
        shows: JSON.stringify({ kind: 'view_from_spot', label: 'From the pier' }),
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(res.body.credit, '  Ana Trails / Studio  ');
      assert.equal(res.body.caption, 'Dawn at the lake');
      assert.equal(res.body.focalX, 0.25);
      assert.equal(res.body.capturedOn, '2024-06-02');
      assert.deepEqual(res.body.shows, { kind: 'view_from_spot', label: 'From the pier' });
      assert.equal(res.body.warnings, undefined, 'a credited photo needs no warning');
    });

    it('spotId attaches the photo; a spot of another guide is refused before anything is stored', async () => {
      const productId = await guide();
      const other = await guide();
      const spot = await suite.apis.rest.call('create_spot', { productId, name: 'Pier', spotKey: 'pier' });
      const foreign = await suite.apis.rest.call('create_spot', { productId: other, name: 'Elsewhere' });
      const ok = await uploadRaw(suite.h, key(), await phoneJpeg(), 'image/jpeg', {
        productId,
        spotId: spot.body.spotId,
      });
      assert.equal(ok.status, 201);
      assert.equal(ok.body.spotId, spot.body.spotId);
      assert.equal(ok.body.spotKey, 'pier');
      const before = await storedFiles(suite.h);
      const refused = await uploadRaw(suite.h, key(), await phoneJpeg(), 'image/jpeg', {
        productId,
        spotId: foreign.body.spotId,
      });
      assert.equal(refused.status, 400);
      assert.equal(refused.body.error.code, 'invalid_request');
      assert.match(refused.body.error.message, /^spotId:/);
      assert.deepEqual(await storedFiles(suite.h), before);
    });

    it('target=blob answers a storageId and image URLs, is not a photo of the guide, and takes no metadata', async () => {
      const productId = await guide();
      const res = await uploadRaw(suite.h, key(), await flat(64, 48).png().toBuffer(), 'image/png', {
        productId,
        target: 'blob',
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.match(res.body.storageId, /^sto_/);
      assert.equal(res.body.mediaId, undefined);
      assert.ok(res.body.urls.original.endsWith('.png'));
      const list = await suite.apis.rest.call('list_media', { productId });
      assert.equal(list.body.count, 0);
      assert.equal((await suite.apis.rest.call('get_guide', { productId })).body.photoCount, 0);
      const refused = await uploadRaw(suite.h, key(), await flat(64, 48).png().toBuffer(), 'image/png', {
        productId,
        target: 'blob',
        credit: 'Ana',
      });
      assert.equal(refused.status, 400);
      assert.match(refused.body.error.message, /^credit:/);
    });

    it('refuses what is not an accepted photo with 400 invalid_request naming what is accepted', async () => {
      const productId = await guide();
      const jpeg = await phoneJpeg();
      const cases: Array<[Buffer, string | undefined, RegExp]> = [
        [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/svg+xml', /not a photo type/],
        [jpeg.subarray(0, 400), 'image/jpeg', /could not be read/],
        [await flat(20, 20).png().toBuffer(), 'image/jpeg', /bytes are PNG/],
        [heicStart(), 'image/heic', /HEIC/],
        [pngBomb(), 'image/png', /megapixels/],
      ];
      const before = await storedFiles(suite.h);
      for (const [bytes, type, hint] of cases) {
        const res = await uploadRaw(suite.h, key(), bytes, type, { productId });
        assert.equal(res.status, 400, JSON.stringify(res.body));
        assert.equal(res.body.error.code, 'invalid_request');
        assert.match(res.body.error.message, hint);
        assert.match(res.body.error.message, /Accepted photos|at most/);
      }
      assert.deepEqual(await storedFiles(suite.h), before, 'nothing stored');
      assert.equal((await suite.apis.rest.call('list_media', { productId })).body.count, 0);
    });

    it('over 6 MB: 413 from the declared length, and from the bytes counted when no length is declared', async () => {
      const productId = await guide();
      const big = Buffer.alloc(6 * MIB + 1, 0xff);
      const declared = await uploadRaw(suite.h, key(), big, 'image/jpeg', { productId });
      assert.equal(declared.status, 413);
      assert.equal(declared.body.error.code, 'payload_too_large');
      // A stream without Content-Length (chunked): the server counts and stops at the limit.
      const stream = new ReadableStream({
        start(controller) {
          for (let i = 0; i < 7; i++) controller.enqueue(new Uint8Array(MIB));
          controller.close();
        },
      });
      const res = await fetch(`${suite.h.baseUrl}/media/upload?productId=${productId}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key()}`, 'content-type': 'image/jpeg' },
        body: stream,
        duplex: 'half',
      } as RequestInit);
      assert.equal(res.status, 413);
      assert.equal(((await res.json()) as any).error.code, 'payload_too_large');
      const form = await uploadForm(suite.h, key(), '/media/upload', [{ bytes: big }], { productId });
      assert.equal(form.status, 413);
    });

    it('a photo is read whole however its body arrives; one cut short is refused and stores nothing', async () => {
      const productId = await guide();
      const jpeg = await phoneJpeg();
      const whole = await uploadRaw(suite.h, key(), jpeg, 'image/jpeg', { productId });
      assert.equal(whole.status, 201, JSON.stringify(whole.body));
      const original = (await fetchImage(whole.body.urls.original)).bytes;
      const url = new URL(`${suite.h.baseUrl}/media/upload?productId=${productId}`);
      const headers = { authorization: `Bearer ${key()}`, 'content-type': 'image/jpeg' };
      // The declared length in small pieces, each sent after the last left: copied in where it belongs.
      const pieces = await new Promise<{ status: number; body: any }>((resolve, reject) => {
        const req = request(url, { method: 'POST', headers: { ...headers, 'content-length': jpeg.length } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) }),
          );
        });
        req.on('error', reject);
        const send = (at: number): void => {
          if (at >= jpeg.length) return void req.end();
          req.write(jpeg.subarray(at, at + 700), () => setTimeout(() => send(at + 700), 1));
        };
        send(0);
      });
      // No length at all (chunked): gathered at the end.
      const chunked = await fetch(url, {
        method: 'POST',
        headers,
        body: new ReadableStream({
          start(controller) {
            for (let at = 0; at < jpeg.length; at += 700) controller.enqueue(jpeg.subarray(at, at + 700));
            controller.close();
          },
        }),
        duplex: 'half',
      } as RequestInit);
      const chunkedBody = (await chunked.json()) as any;
      for (const [how, answer] of [
        ['in pieces', pieces],
        ['chunked', { status: chunked.status, body: chunkedBody }],
      ] as const) {
        assert.equal(answer.status, 201, `${how}: ${JSON.stringify(answer.body)}`);
        assert.deepEqual((await fetchImage(answer.body.urls.original)).bytes, original, `${how}: the same original`);
      }
      // Half the declared bytes, then the connection closes: no row, no file.
      const before = await storedFiles(suite.h);
      await new Promise<void>((resolve, reject) => {
        const socket = connect(Number(url.port), url.hostname, () => {
          const head = Object.entries({ ...headers, host: url.host, 'content-length': jpeg.length })
            .map(([name, value]) => `${name}: ${value}\r\n`)
            .join('');
          socket.write(`POST ${url.pathname}${url.search} HTTP/1.1\r\n${head}\r\n`);
          socket.end(jpeg.subarray(0, jpeg.length >> 1));
        });
        socket.on('error', reject).on('close', () => resolve());
        socket.resume();
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.deepEqual(await storedFiles(suite.h), before, 'nothing stored');
      assert.equal((await suite.apis.rest.call('list_media', { productId })).body.count, 3);
    });

    it("needs a key and the write scope; no file is 400; another creator's guide is 404", async () => {
      const productId = await guide();
      const jpeg = await phoneJpeg();
      assert.equal((await uploadRaw(suite.h, 'sk_service_nope', jpeg, 'image/jpeg', { productId })).status, 401);
      const read = await uploadRaw(suite.h, suite.h.alice.readKey, jpeg, 'image/jpeg', { productId });
      assert.equal(read.status, 403);
      const none = await uploadForm(suite.h, key(), '/media/upload', [], { productId });
      assert.equal(none.status, 400);
      assert.match(none.body.error.message, /^file:/);
      const theirs = await uploadRaw(suite.h, suite.h.bob.writeKey, jpeg, 'image/jpeg', { productId });
      assert.equal(theirs.status, 404);
      assert.equal(theirs.body.error.code, 'not_found');
    });

    it('batch: photos in the order sent, the shared credit on each; answered 201', async () => {
      const productId = await guide();
      const files = [
        { bytes: await phoneJpeg(), name: 'one.jpg' },
        { bytes: await flat(120, 90).png().toBuffer(), type: 'image/png', name: 'two.png' },
        { bytes: await flat(90, 120).webp().toBuffer(), type: 'application/octet-stream', name: 'three.webp' },
      ];
      const res = await uploadForm(
        suite.h,
        key(),
        '/media/upload-batch',
        files,
        { credit: 'Ana Trails' },
        { productId },
      );
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(res.body.count, 3);
      assert.deepEqual(
        res.body.media.map((m: any) => [m.order, m.width, m.height, m.credit]),
        [
          [1, 200, 300, 'Ana Trails'],
          [2, 120, 90, 'Ana Trails'],
          [3, 90, 120, 'Ana Trails'],
        ],
      );
      const list = await suite.apis.rest.call('list_media', { productId });
      assert.deepEqual(
        list.body.media.map((m: any) => m.mediaId),
        res.body.media.map((m: any) => m.mediaId),
      );
      assert.equal((await suite.apis.rest.call('get_guide', { productId })).body.photoCount, 3);
    });

    it('batch with one corrupt file writes nothing and names its index and file name', async () => {
      const productId = await guide();
      const before = await storedFiles(suite.h);
      const good = await phoneJpeg();
      const res = await uploadForm(
        suite.h,
        key(),
        '/media/upload-batch',
        [
          { bytes: good, name: 'fine.jpg' },
          { bytes: good.subarray(0, 500), name: 'broken.jpg' },
          { bytes: good, name: 'also-fine.jpg' },
        ],
        { productId },
      );
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.error.code, 'invalid_request');
      assert.match(res.body.error.message, /^files\[1\]: \(broken\.jpg\)/);
      assert.equal((await suite.apis.rest.call('list_media', { productId })).body.count, 0);
      assert.deepEqual(await storedFiles(suite.h), before, 'no file left behind');
    });

    it('batch bounds: more than 10 files is 400 naming files, 19 MB in all is 413; a raw body is refused', async () => {
      const productId = await guide();
      const small = await flat(8, 8).png().toBuffer();
      const eleven = Array.from({ length: 11 }, () => ({ bytes: small, type: 'image/png' }));
      const many = await uploadForm(suite.h, key(), '/media/upload-batch', eleven, { productId });
      assert.equal(many.status, 400, JSON.stringify(many.body));
      assert.equal(many.body.error.code, 'invalid_request');
      assert.match(many.body.error.message, /^files: at most 10 files/);
      assert.equal(many.body.error.details.path, 'files');
      const heavy = Array.from({ length: 4 }, () => ({ bytes: Buffer.alloc(5 * MIB, 0xff) }));
      const huge = await uploadForm(suite.h, key(), '/media/upload-batch', heavy, { productId });
      assert.equal(huge.status, 413);
      const raw = await fetch(`${suite.h.baseUrl}/media/upload-batch?productId=${productId}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key()}`, 'content-type': 'image/png' },
        body: new Uint8Array(small),
      });
      assert.equal(raw.status, 400);
      assert.equal((await suite.apis.rest.call('list_media', { productId })).body.count, 0);
    });

    it('the uploads are REST only: no MCP tool of that name', async () => {
      const tools = suite.h.app.registry.tools.map((op) => op.name);
      assert.ok(!tools.includes('upload_media') && !tools.includes('upload_media_batch'));
      assert.ok(tools.includes('list_media'));
      assertError(await suite.apis.rest.call('list_media', { productId: 'gd_missing' }), 'not_found');
      assertOk(await suite.apis.rest.call('list_media', { productId: await guide() }));
    });
  });

  describe(`upload rate limit per key (${name})`, { skip }, () => {
    const suite = useServer({ dialect, blobStore, env: { RATE_LIMIT_UPLOADS_PER_MINUTE: '2' } });
    it('the third upload in a minute is 429 with retryAfterMs; other calls go on', async () => {
      const productId = await newGuide(suite.apis.rest);
      const png = await flat(16, 16).png().toBuffer();
      for (let i = 0; i < 2; i++) {
        assert.equal((await uploadRaw(suite.h, suite.h.alice.writeKey, png, 'image/png', { productId })).status, 201);
      }
      const third = await uploadRaw(suite.h, suite.h.alice.writeKey, png, 'image/png', { productId });
      assert.equal(third.status, 429);
      assert.equal(third.body.error.code, 'rate_limited');
      assert.ok(third.body.error.retryAfterMs > 0);
      assert.equal(third.body.error.details.policy, 'uploads');
      assertRefusalHeaders(third);
      assertOk(await suite.apis.rest.call('list_media', { productId }));
      // Another key of the same creator has its own upload budget.
      const other = await uploadRaw(suite.h, suite.h.alice.publishKey, png, 'image/png', { productId });
      assert.equal(other.status, 201);
    });
  });
}
