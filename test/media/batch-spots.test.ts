import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertOk } from '../helpers/answers.ts';
import { type Api, useServer } from '../helpers/api.ts';
import { testSetups } from '../helpers/blob-stores.ts';
import { newGuide } from '../helpers/fixtures.ts';
import { flat } from '../helpers/images.ts';
import { type FilePart, storedFiles, type UploadAnswer, uploadForm } from '../helpers/uploads.ts';

/** upload_media_batch gives each file its own spot (spotIds), all or nothing; REST only. */
for (const { dialect, blobStore, skip, name } of await testSetups()) {
  describe(`upload_media_batch with a spot per file (${name})`, { skip }, () => {
    const suite = useServer({ dialect, blobStore, env: { RATE_LIMIT_UPLOADS_PER_MINUTE: '1000' } });
    const api = (): Api => suite.apis.rest;
    const key = () => suite.h.alice.writeKey;

    async function guideWithSpots(keys: readonly string[]): Promise<{ productId: string; spots: string[] }> {
      const productId = await newGuide(api(), 'Ten spots');
      const spots: string[] = [];
      for (const spotKey of keys) {
        const made = await api().call('create_spot', { productId, spotKey, name: spotKey });
        assertOk(made, 201);
        spots.push(made.body.spotId);
      }
      return { productId, spots };
    }
    const photos = async (n: number): Promise<FilePart[]> =>
      Promise.all(
        Array.from({ length: n }, async (_, i) => ({
          bytes: await flat(30 + i, 20)
            .png()
            .toBuffer(),
          type: 'image/png',
          name: `shot-${i}.png`,
        })),
      );
    const batch = (files: FilePart[], fields: Record<string, unknown>, queryFields: Record<string, unknown> = {}) =>
      uploadForm(suite.h, key(), '/media/upload-batch', files, fields, queryFields);
    const spotsOf = (res: UploadAnswer) => res.body.media.map((m: any) => [m.width, m.spotId, m.spotKey]);

    /** The refusal, with nothing of the batch stored: no row, no file. */
    async function refusedWithNothingStored(
      productId: string,
      send: () => Promise<UploadAnswer>,
      start: RegExp,
      code = 'invalid_request',
    ) {
      const before = await storedFiles(suite.h);
      const res = await send();
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.error.code, code);
      assert.match(res.body.error.message, start);
      assert.equal((await api().call('list_media', { productId })).body.count, 0);
      assert.deepEqual(await storedFiles(suite.h), before, 'no file left behind');
      return res.body.error.message as string;
    }

    it('a JSON list in one form field puts each photo on its own spot, null on none, in file order', async () => {
      const { productId, spots } = await guideWithSpots(['bled', 'bohinj', 'vintgar']);
      const res = await batch(await photos(4), {
        productId,
        spotIds: JSON.stringify([spots[2], null, spots[0], '']),
        credit: 'Ana Trails',
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.deepEqual(spotsOf(res), [
        [30, spots[2], 'vintgar'],
        [31, null, null],
        [32, spots[0], 'bled'],
        [33, null, null],
      ]);
      assert.deepEqual(
        res.body.media.map((m: any) => [m.order, m.credit]),
        [
          [1, 'Ana Trails'],
          [2, 'Ana Trails'],
          [3, 'Ana Trails'],
          [4, 'Ana Trails'],
        ],
      );
      const atBled = (await api().call('list_media', { productId, spotId: spots[0] })).body.media;
      assert.deepEqual(
        atBled.map((m: any) => m.mediaId),
        [res.body.media[2].mediaId],
      );
    });

    it('the field repeated once per file, or the list in the query, says the same', async () => {
      const { productId, spots } = await guideWithSpots(['bled', 'bohinj']);
      const repeated = await batch(await photos(3), { productId, spotIds: [spots[1], '', spots[0]] });
      assert.equal(repeated.status, 201, JSON.stringify(repeated.body));
      assert.deepEqual(spotsOf(repeated), [
        [30, spots[1], 'bohinj'],
        [31, null, null],
        [32, spots[0], 'bled'],
      ]);
      const inQuery = await batch(await photos(2), {}, { productId, spotIds: JSON.stringify([spots[0], spots[1]]) });
      assert.equal(inQuery.status, 201, JSON.stringify(inQuery.body));
      assert.deepEqual(spotsOf(inQuery), [
        [30, spots[0], 'bled'],
        [31, spots[1], 'bohinj'],
      ]);
      const repeatedInQuery = await batch(await photos(2), {}, { productId, spotIds: [spots[1], spots[0]] });
      assert.equal(repeatedInQuery.status, 201, JSON.stringify(repeatedInQuery.body));
      assert.deepEqual(spotsOf(repeatedInQuery), [
        [30, spots[1], 'bohinj'],
        [31, spots[0], 'bled'],
      ]);
      const one = await batch(await photos(1), { productId, spotIds: spots[1] });
      assert.equal(one.status, 201, 'a lone value is a list of one');
      assert.deepEqual(spotsOf(one), [[30, spots[1], 'bohinj']]);
    });

    it('a list that does not match the files is refused naming spotIds, and nothing is stored', async () => {
      const { productId, spots } = await guideWithSpots(['bled', 'bohinj']);
      const files = await photos(3);
      const short = await refusedWithNothingStored(
        productId,
        () => batch(files, { productId, spotIds: JSON.stringify([spots[0], spots[1]]) }),
        /^spotIds: 2 entries for 3 files: give exactly one per file part, in the order of the files/,
      );
      assert.match(short, /Nothing was stored\.$/);
      await refusedWithNothingStored(
        productId,
        () => batch(files, { productId, spotIds: [spots[0], spots[0], spots[0], spots[1]] }),
        /^spotIds: 4 entries for 3 files/,
      );
      await refusedWithNothingStored(
        productId,
        () => batch(files, { productId, spotId: spots[0], spotIds: JSON.stringify([null, null, null]) }),
        /^spotIds: send spotId \(every photo on one spot\) or spotIds \(one per file\), not both\.$/,
      );
      await refusedWithNothingStored(
        productId,
        () => batch(files, { productId, spotIds: `["${spots[0]}", null` }),
        /^spotIds: /,
        'invalid_argument',
      );
    });

    it("a spot of another guide is refused at its index; a spot's key is refused with the id to send", async () => {
      const { productId, spots } = await guideWithSpots(['bled']);
      const other = await guideWithSpots(['elsewhere']);
      const files = await photos(2);
      await refusedWithNothingStored(
        productId,
        () => batch(files, { productId, spotIds: JSON.stringify([spots[0], other.spots[0]]) }),
        /^spotIds\[1\]: no spot with this id in the guide; take spotId from list_spots\.$/,
      );
      const byKey = await refusedWithNothingStored(
        productId,
        () => batch(files, { productId, spotIds: JSON.stringify([null, 'bled']) }),
        /^spotIds\[1\]: "bled" is that spot's spotKey/,
      );
      assert.ok(byKey.includes(`send its spotId "${spots[0]}" instead`), byKey);
    });

    it('a field that takes one value, sent twice in the form, is refused rather than one of them dropped', async () => {
      const { productId } = await guideWithSpots([]);
      const before = await storedFiles(suite.h);
      const res = await batch(await photos(1), { productId, credit: ['Ana Trails', 'Marko Kos'] });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.match(res.body.error.message, /^credit: sent 2 times in the form; it takes one value, so send it once$/);
      assert.deepEqual(await storedFiles(suite.h), before);
      assert.equal((await api().call('list_media', { productId })).body.count, 0);
    });
  });
}
