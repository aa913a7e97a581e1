import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { zipSync } from 'fflate';
import { useServer } from '../helpers/api.ts';
import { emptyGuideRecords, makeArchive, spotRecord } from '../helpers/archives.ts';
import { testDialects } from '../helpers/dialects.ts';
import { uploadArchive } from '../helpers/example-story.ts';
import { flat } from '../helpers/images.ts';
import { storedFiles } from '../helpers/uploads.ts';
import { declaringCompressed, declaringSize, encrypted, garbled, renamed } from './zip-surgery.ts';

/**
 * Archives no export wrote: each is refused with a 400 naming the part at fault, and nothing of it
 * is written (no guide row, no photo file). Sizes and names are checked before anything inflates.
 */

const PNG_NAME = 'files/blob_BBBBBBBBBBBBBBBB.png';

/** A guide with one stored image and its file: an archive with something to write. */
async function withImage() {
  const png = await flat(8, 8).png().toBuffer();
  const records = emptyGuideRecords();
  records.storedImages = [
    {
      storageId: 'sto_CCCCCCCCCCCCCCCC',
      width: 8,
      height: 8,
      files: { original: { key: 'blob_BBBBBBBBBBBBBBBB', contentType: 'image/png', width: 8, height: 8 } },
    },
  ];
  return { records, files: new Map([[PNG_NAME, png]]) };
}

for (const { dialect, skip } of await testDialects()) {
  describe(`hostile guide archives (${dialect})`, { skip }, () => {
    const suite = useServer({ dialect });

    async function guideCount(): Promise<number> {
      const row = await suite.h.store.db
        .selectFrom('guides')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('creator_id', '=', suite.h.alice.creatorId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    }

    /** Sends the archive: a 400 whose message names `part`, and nothing written. */
    async function refused(zip: Uint8Array, part: RegExp | string) {
      const before = { guides: await guideCount(), files: await storedFiles(suite.h) };
      const res = await uploadArchive(suite.h.baseUrl, suite.h.alice.writeKey, zip);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      const error = (res.body as any).error;
      assert.equal(error.code, 'invalid_request');
      if (typeof part === 'string') assert.ok(error.message.startsWith(part), error.message);
      else assert.match(error.message, part);
      assert.match(error.message, /Nothing was imported/);
      assert.deepEqual({ guides: await guideCount(), files: await storedFiles(suite.h) }, before, 'nothing written');
      return error.message as string;
    }

    it('a sound archive is taken (the base every hostile one below alters)', async () => {
      const { records, files } = await withImage();
      const res = await uploadArchive(suite.h.baseUrl, suite.h.alice.writeKey, makeArchive(records, files));
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal((res.body as any).counts.files, 1);
    });

    it('not a zip, or a zip with no manifest', async () => {
      await refused(Buffer.from('just some text, no zip at all'), /^archive: is not a zip file/);
      await refused(zipSync({ 'records.json': Buffer.from('{}') }), /holds no manifest\.json/);
    });

    it('a zip bomb: a file declaring more than a photo can be is refused before inflating', async () => {
      const { records, files } = await withImage();
      const big = Buffer.alloc(9 * 1024 * 1024);
      const zip = makeArchive(records, new Map([[PNG_NAME, big]]));
      assert.ok(zip.length < 100_000, 'small on the wire');
      assert.ok(files.size === 1);
      await refused(zip, /entry "files\/blob_BBBBBBBBBBBBBBBB\.png": declares 9437184 bytes/);
    });

    it('a zip bomb lying about its size stops inflating past what it declared', async () => {
      const { records } = await withImage();
      const bomb = Buffer.alloc(64 * 1024 * 1024);
      const zip = declaringSize(
        makeArchive(records, new Map([[PNG_NAME, bomb]]), (m) => {
          m.files[0].bytes = 100;
          return m;
        }),
        PNG_NAME,
        100,
      );
      const started = process.hrtime.bigint();
      await refused(
        zip,
        /^archive entry "files\/blob_BBBBBBBBBBBBBBBB\.png": inflates to more than the 100 bytes it declares/,
      );
      assert.ok(Number(process.hrtime.bigint() - started) / 1e6 < 5000, 'refused at once, not after inflating 64 MB');
    });

    it('names that climb out of the archive or are not its own', async () => {
      const { records, files } = await withImage();
      for (const name of [
        '../../etc/passwd',
        'files/../../evil.png',
        '/abs/records.json',
        'files\\blob_BBBBBBBBBBBBBBBB.png',
      ]) {
        const zip = makeArchive(records, files, (m) => m, { [name]: Buffer.from('x') });
        await refused(zip, `archive entry "${name}": is not a name this archive holds`);
      }
    });

    // The KMZ reader's defences, which the archive shares since both are one zip reader, and the
    // zip reader's own: each names the entry at fault.
    it('a name twice, an encrypted entry, an entry cut short, damaged or named otherwise in its local header', async () => {
      const { records, files } = await withImage();
      const other = 'files/blob_CCCCCCCCCCCCCCCC.png';
      const twice = renamed(
        makeArchive(records, files, (m) => m, { [other]: Buffer.from('x') }),
        other,
        PNG_NAME,
      );
      await refused(twice, `archive entry "${PNG_NAME}": appears twice.`);
      const zip = makeArchive(records, files);
      await refused(encrypted(zip, PNG_NAME), `archive entry "${PNG_NAME}": is encrypted.`);
      await refused(declaringCompressed(zip, PNG_NAME, 10_000_000), `archive entry "${PNG_NAME}": is cut short.`);
      await refused(garbled(zip, 'records.json'), 'archive entry "records.json": is damaged: its deflated data');
      const renamedLocally = renamed(zip, PNG_NAME, PNG_NAME.replace('BBBB', 'CCCC'), 'local');
      await refused(renamedLocally, `archive entry "${PNG_NAME}": is damaged: its local header names another file.`);
      await refused(zip.subarray(0, zip.length - 30), /^archive: is not a zip file/);
    });

    it('too many entries, counted from the central directory', async () => {
      const entries: Record<string, Uint8Array> = {};
      for (let i = 0; i < 8003; i++) entries[`e${i}`] = new Uint8Array(0);
      await refused(zipSync(entries), /holds 8003 entries; at most 8002/);
    });

    it("a manifest that lies: a file's sha256, a file it does not list, a file it lists that is missing", async () => {
      const { records, files } = await withImage();
      const wrongHash = makeArchive(records, files, (m) => {
        m.files[0].sha256 = 'a'.repeat(64);
        return m;
      });
      await refused(wrongHash, /entry "files\/blob_BBBBBBBBBBBBBBBB\.png": does not match the manifest's sha256/);
      const unlisted = makeArchive(records, files, (m) => ({ ...m, files: [] }));
      await refused(unlisted, /entry "files\/blob_BBBBBBBBBBBBBBBB\.png": is not listed in the manifest/);
      const changedRecords = makeArchive(records, files, (m) => ({
        ...m,
        records: { ...m.records, sha256: 'b'.repeat(64) },
      }));
      await refused(changedRecords, /entry "records\.json": does not match the manifest's sha256/);
    });

    it('an unknown format version, or another format', async () => {
      const records = emptyGuideRecords();
      await refused(
        makeArchive(records, new Map(), (m) => ({ ...m, formatVersion: 2 })),
        /manifest\.json: has format version 2/,
      );
      await refused(
        makeArchive(records, new Map(), (m) => ({ ...m, format: 'other' })),
        /manifest\.json: is not a guide archive's/,
      );
    });

    it('records naming ids, spot keys or files the archive does not hold', async () => {
      const { records, files } = await withImage();
      const spot = spotRecord({ areaId: 'ar_ZZZZZZZZZZZZZZZZ' });
      await refused(makeArchive({ ...records, spots: [spot] }, files), /records\.json: names "ar_ZZZZZZZZZZZZZZZZ"/);
      const route = {
        id: 'rt_EEEEEEEEEEEEEEEE',
        kind: 'route',
        name: null,
        record: {},
        spotKeys: ['nowhere'],
        facilities: [],
      };
      await refused(
        makeArchive({ ...records, routesWithTracks: [route] }, files),
        /records\.json routesWithTracks: names the spot key "nowhere"/,
      );
      await refused(
        makeArchive(records, new Map()),
        /records\.json photos: names the file "files\/blob_BBBBBBBBBBBBBBBB\.png"/,
      );
    });

    it('a failed import leaves nothing: a record its store cannot take, after the files were written', async () => {
      const { records, files } = await withImage();
      // Passes every check of the archive; its chapter has no name, which the chapters table refuses.
      const chapter = { id: 'col_EEEEEEEEEEEEEEEE', kind: 'chapter', name: null, body: [], pages: [], members: [] };
      await refused(
        makeArchive({ ...records, chapters: [chapter] }, files),
        /^archive records\.json chapters: holds a record/,
      );
    });

    it("records whose fields their resource would refuse: a latitude out of range, a spot key's format, a place's name, a slug", async () => {
      const { records, files } = await withImage();
      const far = spotRecord({ lat: 500, lon: 13.9 });
      await refused(makeArchive({ ...records, spots: [far] }, files), /^archive records\.json spots\[0\]\.lat: /);
      const place = { facilityId: 'fac_EEEEEEEEEEEEEEEE', kind: 'food', name: 7, insideId: null, spotKeys: [] };
      await refused(makeArchive({ ...records, places: [place] }, files), /^archive records\.json places\[0\]\./);
      const slug = { ...records, guide: { ...records.guide, slug: '../../etc' } };
      await refused(makeArchive(slug, files), /^archive records\.json guide\.slug: /);
      const key = spotRecord({ spotKey: '../Lake' });
      await refused(
        makeArchive({ ...records, spots: [key] }, files),
        /^archive records\.json spots\[0\]\.spotKey: must be lowercase/,
      );
    });
  });
}
