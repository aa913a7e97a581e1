import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertError, assertOk } from '../helpers/answers.ts';
import { apiFor, transports, useServer } from '../helpers/api.ts';
import { testDialects } from '../helpers/dialects.ts';
import { guideOf, newGuide, times } from '../helpers/fixtures.ts';
import { uploadImportFile } from './import-calls.ts';
import { spreadsheetCsv } from './import-files.ts';

const upload = uploadImportFile;

/** A GeoJSON over the 2 MB JSON body: 2,500 places with long descriptions. */
const bigGeojson = JSON.stringify({
  type: 'FeatureCollection',
  features: times(2500, (i) => ({
    type: 'Feature',
    properties: { name: `Place ${i}`, description: `${'Long way round. '.repeat(60)}${i}` },
    geometry: { type: 'Point', coordinates: [14 + i / 10_000, 46] },
  })),
});

for (const { dialect, skip } of await testDialects()) {
  describe(`files: upload_import_file then import_spots by uploadId (${dialect})`, { skip }, () => {
    const suite = useServer({ dialect });

    it('a file over the JSON body is uploaded raw, then imported by id over REST and MCP alike', async () => {
      const { h, apis } = suite;
      assert.ok(Buffer.byteLength(bigGeojson) > 2 * 1024 * 1024);
      const productId = await newGuide(apis.rest, 'big file');
      const before = await guideOf(apis.rest, productId);
      const up = await upload(h, h.alice.writeKey, productId, Buffer.from(bigGeojson), {
        type: 'application/geo+json',
      });
      assertOk(up);
      assert.equal(up.body.zip, false);
      assert.equal(up.body.bytes, Buffer.byteLength(bigGeojson));
      assert.ok(up.body.uploadId.startsWith('upl_'));
      assert.equal(
        (await guideOf(apis.rest, productId)).lastApiWriteAt,
        before.lastApiWriteAt,
        'an upload writes nothing of the guide',
      );
      const dry = await apis.mcp.call('import_spots', {
        productId,
        format: 'geojson',
        uploadId: up.body.uploadId,
        dryRun: true,
      });
      assertOk(dry);
      assert.equal(dry.body.created, 2500);
      const real = await apis.rest.call('import_spots', { productId, format: 'geojson', uploadId: up.body.uploadId });
      assertOk(real);
      assert.equal(real.body.created, 2500);
      assert.equal(real.body.items.length, 50, 'a real import answers its first page only');
      assert.equal(real.body.nextCursor, undefined);
      assert.equal((await guideOf(apis.rest, productId)).spotCount, 2500);
      const again = await apis.mcp.call('import_spots', { productId, format: 'geojson', uploadId: up.body.uploadId });
      assertOk(again);
      assert.equal(again.body.unchanged, 2500);
    });

    it('a CSV as a form part; in two encodings it is refused at upload', async () => {
      const { h, apis } = suite;
      const productId = await newGuide(apis.rest, 'csv upload');
      const up = await upload(h, h.alice.writeKey, productId, Buffer.from(spreadsheetCsv), {
        form: true,
        type: 'text/csv',
      });
      assertOk(up);
      assert.equal(up.body.filename, 'places.csv');
      for (const t of transports) {
        const a = await apis[t].call('import_spots', { productId, format: 'csv', uploadId: up.body.uploadId });
        assertOk(a);
        assert.equal(a.body.created + a.body.unchanged, 3);
      }
      // "Vršič" with č in Windows-1250 among UTF-8 text.
      const mixed = Buffer.concat([
        Buffer.from('name,lat,lon\nVr\u0161i'),
        Buffer.from([0xe8]),
        Buffer.from(',46.4,13.7\n'),
      ]);
      assertError(
        await upload(h, h.alice.writeKey, productId, mixed, { type: 'text/csv' }),
        'invalid_request',
        'file',
        { hint: /UTF-8/ },
      );
    });

    it('a KMZ is kept as a zip for format kml; other formats and a broken zip are refused clearly', async () => {
      const { h, apis } = suite;
      const productId = await newGuide(apis.rest, 'kmz upload');
      const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(60)]);
      const up = await upload(h, h.alice.writeKey, productId, zip, { type: 'application/vnd.google-earth.kmz' });
      assertOk(up);
      assert.equal(up.body.zip, true);
      assertError(
        await apis.mcp.call('import_spots', { productId, format: 'geojson', uploadId: up.body.uploadId }),
        'invalid_request',
        'format',
      );
      assertError(
        await apis.rest.call('import_spots', { productId, format: 'kml', uploadId: up.body.uploadId }),
        'invalid_request',
        'uploadId',
      );
    });

    it("uploads belong to their guide, expire after an hour, and another creator's guide is not found", async () => {
      const { h, apis } = suite;
      const productId = await newGuide(apis.rest, 'owned upload');
      const other = await newGuide(apis.rest, 'other guide');
      const up = await upload(h, h.alice.writeKey, productId, Buffer.from(spreadsheetCsv));
      assertOk(up);
      assertError(
        await apis.rest.call('import_spots', { productId: other, format: 'csv', uploadId: up.body.uploadId }),
        'invalid_request',
        'uploadId',
      );
      const bob = apiFor(h, 'mcp', h.bob.writeKey);
      try {
        assertError(
          await bob.call('import_spots', { productId, format: 'csv', uploadId: up.body.uploadId }),
          'not_found',
        );
      } finally {
        await bob.close();
      }
      assertError(await upload(h, h.bob.writeKey, productId, Buffer.from(spreadsheetCsv)), 'not_found');
      assertError(await upload(h, h.alice.writeKey, productId, Buffer.alloc(0)), 'invalid_request', 'file');
      h.clock.set(new Date(h.clock.now() + 61 * 60 * 1000).toISOString());
      assertError(
        await apis.rest.call('import_spots', { productId, format: 'csv', uploadId: up.body.uploadId }),
        'invalid_request',
        'uploadId',
        { hint: /an hour/ },
      );
      // The next upload sweeps what expired.
      assertOk(await upload(h, h.alice.writeKey, other, Buffer.from(spreadsheetCsv)));
      const left = await h.store.db
        .selectFrom('import_uploads')
        .select('id')
        .where('id', '=', up.body.uploadId)
        .execute();
      assert.deepEqual(left, []);
    });

    it('a file over 10 MB is refused before it is read (413)', async () => {
      const { h, apis } = suite;
      const productId = await newGuide(apis.rest, 'huge upload');
      assertError(
        await upload(h, h.alice.writeKey, productId, Buffer.alloc(10 * 1024 * 1024 + 1, 0x20)),
        'payload_too_large',
      );
    });
  });
}
