import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertError, assertOk } from '../helpers/answers.ts';
import { transports, useServer } from '../helpers/api.ts';
import { testSetups } from '../helpers/blob-stores.ts';
import { newGuide } from '../helpers/fixtures.ts';
import { flat } from '../helpers/images.ts';
import { uploadRaw } from '../helpers/uploads.ts';

/** Chapters name photos: stored images (covers, intro photos) of the caller, photos of the guide. */
for (const { dialect, blobStore, skip, name } of await testSetups()) {
  describe(`chapter photos (${name})`, { skip }, () => {
    const suite = useServer({ dialect, blobStore });
    const upload = async (key: string, productId: string, fields: Record<string, unknown> = {}) => {
      const res = await uploadRaw(suite.h, key, await flat(64, 80).png().toBuffer(), 'image/png', {
        productId,
        ...fields,
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body;
    };

    for (const t of transports) {
      it(`${t}: a cover is an image the creator stored; its URL serves it; another creator's is refused`, async () => {
        const api = suite.apis[t];
        const productId = await newGuide(api, 'Covers');
        const image = await upload(suite.h.alice.writeKey, productId, { target: 'blob' });
        const created = await api.call('create_chapter', {
          productId,
          name: 'Lakes',
          kind: 'chapter',
          coverStorageId: image.storageId,
        });
        assertOk(created, 201);
        assert.equal(created.body.coverStorageId, image.storageId);
        assert.ok(created.body.coverUrl?.startsWith(suite.h.origin), created.body.coverUrl);
        const served = await fetch(created.body.coverUrl);
        assert.equal(served.status, 200);
        assert.match(served.headers.get('content-type') ?? '', /^image\//);
        const listed = await api.call('list_chapters', { productId });
        assert.equal(listed.body.chapters[0].coverUrl, created.body.coverUrl);

        const bobsGuide = (
          await suite.h.app.fastify.inject({
            method: 'POST',
            url: '/api/v1/guides',
            headers: { authorization: `Bearer ${suite.h.bob.writeKey}`, 'content-type': 'application/json' },
            payload: { name: 'Bob' },
          })
        ).json().productId as string;
        const bobs = await upload(suite.h.bob.writeKey, bobsGuide, { target: 'blob' });
        const refused = await api.call('update_chapter', {
          collectionId: created.body.collectionId,
          coverStorageId: bobs.storageId,
        });
        assertError(refused, 'invalid_request', 'coverStorageId');
        const intro = await api.call('set_chapter_intro', {
          collectionId: created.body.collectionId,
          answer: 'full',
          intro: { sections: [{ title: 'Why', photoStorageId: image.storageId, photoCredit: 'Ana Trails' }] },
        });
        assertOk(intro);
        assert.equal(intro.body.intro.sections[0].photoStorageId, image.storageId);
        assert.equal(intro.body.intro.sections[0].photoCredit, 'Ana Trails');
      });

      it(`${t}: a page photo is a photo of this guide; deleting the photo takes its blocks away`, async () => {
        const api = suite.apis[t];
        const productId = await newGuide(api, 'Pages with photos');
        const other = await newGuide(api, 'Another guide');
        const photo = await upload(suite.h.alice.writeKey, productId, { credit: 'Ana Trails' });
        const elsewhere = await upload(suite.h.alice.writeKey, other, { credit: 'Ana Trails' });
        const chapter = (await api.call('create_chapter', { productId, name: 'Walks', kind: 'chapter' })).body;
        const refused = await api.call('set_chapter_pages', {
          collectionId: chapter.collectionId,
          pages: [{ blocks: [{ kind: 'photo', mediaId: elsewhere.mediaId }] }],
        });
        assertError(refused, 'invalid_request', 'pages[0].blocks[0].mediaId');
        const set = await api.call('set_chapter_pages', {
          collectionId: chapter.collectionId,
          pages: [
            {
              blocks: [
                { kind: 'heading', text: 'Morning' },
                { kind: 'photo', mediaId: photo.mediaId },
              ],
            },
            { blocks: [{ kind: 'photo', mediaId: photo.mediaId }] },
          ],
        });
        assertOk(set);
        assertOk(await api.call('delete_media', { mediaId: photo.mediaId }));
        const after = (await api.call('list_chapters', { productId })).body.chapters[0];
        assert.deepEqual(after.pages, [{ blocks: [{ kind: 'heading', text: 'Morning' }] }]);
        assert.ok(after.updatedAt > set.body.updatedAt, 'an editor holding the old pages gets stale_editor');
      });
    }
  });
}
