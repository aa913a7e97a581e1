import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { assertError, assertOk } from '../helpers/answers.ts';
import { apiFor, transports, useServer } from '../helpers/api.ts';
import { bucketEnv, type RefusingProxy, refusingProxy, testBlobStores, testSetups } from '../helpers/blob-stores.ts';
import { testDialects } from '../helpers/dialects.ts';
import { newGuide } from '../helpers/fixtures.ts';
import { type Harness, startServer } from '../helpers/harness.ts';
import { flat } from '../helpers/images.ts';
import { storedFiles, uploadForm, uploadRaw } from '../helpers/uploads.ts';

const jpeg = () => flat(900, 600, '#33aa66').jpeg().toBuffer();

/** A statement that makes every write of `table` fail (what a lost connection or a full disk does to a commit). */
async function refuseWrites(
  h: Harness,
  table: 'media' | 'guides',
  event: 'insert' | 'update',
): Promise<() => Promise<void>> {
  const name = `refuse_${table}_${event}`;
  if (h.dialect === 'sqlite') {
    await sql
      .raw(`create trigger ${name} before ${event} on ${table} begin select raise(abort, 'refused by the test'); end`)
      .execute(h.store.db);
    return async () => void (await sql.raw(`drop trigger ${name}`).execute(h.store.db));
  }
  await sql
    .raw(
      `create function ${name}() returns trigger language plpgsql as $$ begin raise exception 'refused by the test'; end $$`,
    )
    .execute(h.store.db);
  await sql
    .raw(`create trigger ${name} before ${event} on ${table} for each row execute function ${name}()`)
    .execute(h.store.db);
  return async () => {
    await sql.raw(`drop trigger ${name} on ${table}`).execute(h.store.db);
    await sql.raw(`drop function ${name}()`).execute(h.store.db);
  };
}

async function photoCount(h: Harness): Promise<number> {
  const row = await h.store.db
    .selectFrom('media')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The files are written before the row: when the row's transaction fails, the files written go too. */
for (const { dialect, blobStore, skip, name } of await testSetups()) {
  describe(`a write whose transaction fails leaves no file behind (${name})`, { skip }, () => {
    const suite = useServer({ dialect, blobStore });

    it('upload_media and upload_media_batch: 500, no row, and the files written are deleted', async () => {
      const h = suite.h;
      const productId = await newGuide(suite.apis.rest, 'Failing commits');
      const before = await storedFiles(h);
      const allow = await refuseWrites(h, 'media', 'insert');
      try {
        const one = await uploadRaw(h, h.alice.writeKey, await jpeg(), 'image/jpeg', { productId });
        assert.equal(one.status, 500, JSON.stringify(one.body));
        assert.equal(one.body.error.code, 'internal_error');
        const batch = await uploadForm(
          h,
          h.alice.writeKey,
          '/media/upload-batch',
          [{ bytes: await jpeg() }, { bytes: await jpeg() }],
          { productId },
        );
        assert.equal(batch.status, 500, JSON.stringify(batch.body));
      } finally {
        await allow();
      }
      assert.equal(await photoCount(h), 0);
      assert.deepEqual(await storedFiles(h), before, 'no file of the failed uploads is left');
      // The same upload once the store takes writes again: stored, and its files are there.
      const ok = await uploadRaw(h, h.alice.writeKey, await jpeg(), 'image/jpeg', { productId });
      assert.equal(ok.status, 201, JSON.stringify(ok.body));
      assert.equal((await storedFiles(h)).length, before.length + 4);
    });

    for (const t of transports) {
      it(`${t}: update_guide with a thumbnail whose commit fails keeps the old one and leaves no new file`, async () => {
        const h = suite.h;
        const api = suite.apis[t];
        const productId = await newGuide(suite.apis.rest, `Thumbnail over ${t}`);
        const uploaded = await uploadRaw(h, h.alice.writeKey, await jpeg(), 'image/jpeg', { productId });
        assert.equal(uploaded.status, 201);
        assertOk(await api.call('update_guide', { productId, thumbnailMediaId: uploaded.body.mediaId }));
        const thumbnail = (await api.call('get_guide', { productId })).body.thumbnailUrl as string;
        const before = await storedFiles(h);
        const allow = await refuseWrites(h, 'guides', 'update');
        try {
          assertError(
            await api.call('update_guide', { productId, name: 'Renamed', clearThumbnail: true }),
            'internal_error',
          );
          assertError(
            await api.call('update_guide', { productId, thumbnailMediaId: uploaded.body.mediaId }),
            'internal_error',
          );
        } finally {
          await allow();
        }
        assert.deepEqual(await storedFiles(h), before, 'the new thumbnail file is gone, the old one kept');
        assert.equal((await api.call('get_guide', { productId })).body.thumbnailUrl, thumbnail);
        assert.equal((await fetch(thumbnail)).status, 200);
      });
    }
  });
}

/** A bucket that refuses writes (a policy, a quota): the upload fails whole, and what it wrote first is deleted. */
const bucketSkip = testBlobStores().includes('s3') ? false : 'TEST_BLOB_STORES leaves s3 out';
for (const { dialect, skip } of await testDialects()) {
  describe(`a bucket that refuses writes (${dialect})`, { skip: skip || bucketSkip }, () => {
    let h: Harness;
    let proxy: RefusingProxy;
    /** PUTs the bucket still accepts; every later one is refused. */
    let accepted = Number.POSITIVE_INFINITY;
    before(async () => {
      proxy = await refusingProxy((req) => req.method === 'PUT' && accepted-- <= 0);
      const env = await bucketEnv(proxy.endpoint);
      h = await startServer({ dialect, env });
    });
    after(async () => {
      await h?.close();
      await proxy?.close();
    });

    it('upload_media: 500 when any rendition is refused, no row, no object left', async () => {
      const productId = await newGuide(apiFor(h, 'rest', h.alice.writeKey), 'Refused');
      for (const allowed of [0, 2]) {
        accepted = allowed;
        const refusedBefore = proxy.refused();
        const res = await uploadRaw(h, h.alice.writeKey, await jpeg(), 'image/jpeg', { productId });
        assert.equal(res.status, 500, JSON.stringify(res.body));
        assert.equal(res.body.error.code, 'internal_error');
        assert.ok(proxy.refused() > refusedBefore);
        assert.deepEqual(await storedFiles(h), [], `${allowed} renditions written, then deleted`);
      }
      assert.equal(await photoCount(h), 0);
    });

    it('upload_media_batch: the second photo refused takes the first one’s files with it', async () => {
      const productId = await newGuide(apiFor(h, 'rest', h.alice.writeKey), 'Refused batch');
      accepted = 5;
      const res = await uploadForm(
        h,
        h.alice.writeKey,
        '/media/upload-batch',
        [{ bytes: await jpeg() }, { bytes: await jpeg() }],
        {
          productId,
        },
      );
      assert.equal(res.status, 500, JSON.stringify(res.body));
      assert.deepEqual(await storedFiles(h), []);
      assert.equal(await photoCount(h), 0);
      accepted = Number.POSITIVE_INFINITY;
      const ok = await uploadRaw(h, h.alice.writeKey, await jpeg(), 'image/jpeg', { productId });
      assert.equal(ok.status, 201, JSON.stringify(ok.body));
      assert.equal((await storedFiles(h)).length, 4);
    });

    for (const t of transports) {
      it(`${t}: update_guide's thumbnail refused by the bucket: 500, the guide as it was`, async () => {
        accepted = Number.POSITIVE_INFINITY;
        const api = apiFor(h, t, h.alice.writeKey);
        try {
          const productId = await newGuide(api, `Refused thumbnail over ${t}`);
          const uploaded = await uploadRaw(h, h.alice.writeKey, await jpeg(), 'image/jpeg', { productId });
          assert.equal(uploaded.status, 201);
          const before = await storedFiles(h);
          accepted = 0;
          assertError(
            await api.call('update_guide', { productId, thumbnailMediaId: uploaded.body.mediaId }),
            'internal_error',
          );
          accepted = Number.POSITIVE_INFINITY;
          assert.deepEqual(await storedFiles(h), before);
          assert.equal((await api.call('get_guide', { productId })).body.thumbnailUrl, null);
        } finally {
          await api.close();
        }
      });
    }
  });
}
