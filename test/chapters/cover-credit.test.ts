import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertError, assertOk } from '../helpers/answers.ts';
import { type Api, apiFor, transports, useServer } from '../helpers/api.ts';
import { testDialects } from '../helpers/dialects.ts';
import { latestSnapshot, newGuide } from '../helpers/fixtures.ts';
import { flat } from '../helpers/images.ts';
import { uploadRaw } from '../helpers/uploads.ts';

/**
 * A chapter's cover carries its credit (rule 6: never dropped, never invented): set with the cover,
 * read back, carried into the release buyers read, and a cover without one blocks a publish.
 */
for (const { dialect, skip } of await testDialects()) {
  describe(`chapter cover credit (${dialect})`, { skip }, () => {
    const suite = useServer({ dialect, env: { RATE_LIMIT_UPLOADS_PER_MINUTE: '1000' } });
    const storedImage = async (productId: string): Promise<string> => {
      const png = await flat(64, 80).png().toBuffer();
      const res = await uploadRaw(suite.h, suite.h.alice.writeKey, png, 'image/png', { productId, target: 'blob' });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.storageId;
    };
    const warningsOf = (a: { body: any }): string => (a.body.warnings ?? []).join('\n');

    /** A guide that would publish but for what the test adds: price, one spot, on sale. */
    async function liveGuide(api: Api, name: string): Promise<string> {
      const productId = await newGuide(api, name);
      assertOk(await api.call('set_guide_price', { productId, amountMinor: 1900, currency: 'eur' }));
      assertOk(await api.call('create_spot', { productId, name: 'Lake Bohinj', lat: 46.28, lon: 13.86 }), 201);
      await suite.h.store.db.updateTable('guides').set({ status: 'published' }).where('id', '=', productId).execute();
      return productId;
    }

    for (const t of transports) {
      it(`${t}: the cover's credit, link and licence are set with it and read back by every chapter answer`, async () => {
        const api = suite.apis[t];
        const productId = await newGuide(api, 'Credited covers');
        const cover = await storedImage(productId);
        const created = await api.call('create_chapter', {
          productId,
          name: 'Lakes',
          kind: 'chapter',
          coverStorageId: cover,
          coverCredit: 'Maja Novak',
          coverCreditUrl: 'https://example.org/maja',
          coverLicence: 'CC BY 4.0',
        });
        assertOk(created, 201);
        assert.equal(created.body.warnings, undefined, 'a credited cover warns of nothing');
        const credit = {
          coverCredit: 'Maja Novak',
          coverCreditUrl: 'https://example.org/maja',
          coverLicence: 'CC BY 4.0',
        };
        for (const [field, value] of Object.entries(credit)) assert.equal(created.body[field], value, field);
        const listed = (await api.call('list_chapters', { productId })).body.chapters[0];
        for (const [field, value] of Object.entries(credit)) assert.equal(listed[field], value, field);

        // Other writes of the chapter keep it: a rename, an intro.
        const renamed = await api.call('update_chapter', { collectionId: created.body.collectionId, name: 'Lakes!' });
        assertOk(renamed);
        assert.equal(renamed.body.coverCredit, 'Maja Novak');
        const intro = await api.call('set_chapter_intro', {
          collectionId: created.body.collectionId,
          answer: 'full',
          intro: { sections: [{ title: 'Why' }] },
        });
        assert.equal(intro.body.coverCredit, 'Maja Novak');

        // PATCH rules: "" clears the credit, null the link; the licence stays.
        const cleared = await api.call('update_chapter', {
          collectionId: created.body.collectionId,
          coverCredit: '',
          coverCreditUrl: null,
        });
        assertOk(cleared);
        assert.deepEqual(
          [cleared.body.coverCredit, cleared.body.coverCreditUrl, cleared.body.coverLicence],
          [null, null, 'CC BY 4.0'],
        );
        assert.match(warningsOf(cleared), /^coverStorageId has no coverCredit: ask the creator who took it/m);
        assertError(
          await api.call('update_chapter', { collectionId: created.body.collectionId, coverCreditUrl: 'ftp://x' }),
          'invalid_request',
          'coverCreditUrl',
        );

        const plain = await api.call('create_chapter', { productId, name: 'No cover' });
        assert.deepEqual(
          [plain.body.coverCredit, plain.body.coverCreditUrl, plain.body.coverLicence],
          [null, null, null],
          'every chapter answers the three fields',
        );
      });

      it(`${t}: a credit is never moved to another image nor kept without one, and each loss is said`, async () => {
        const api = suite.apis[t];
        const productId = await newGuide(api, 'Cover changes');
        const [first, second] = [await storedImage(productId), await storedImage(productId)];
        const chapter = await api.call('create_chapter', {
          productId,
          name: 'Gorges',
          coverStorageId: first,
          coverCredit: 'Ana Trails',
          coverLicence: 'All rights reserved',
        });
        assertOk(chapter, 201);
        const collectionId = chapter.body.collectionId;

        const replaced = await api.call('update_chapter', { collectionId, coverStorageId: second });
        assertOk(replaced);
        assert.equal(replaced.body.coverStorageId, second);
        assert.deepEqual([replaced.body.coverCredit, replaced.body.coverLicence], [null, null]);
        assert.match(warningsOf(replaced), /coverCredit "Ana Trails" was the previous cover's/);

        const recredited = await api.call('update_chapter', { collectionId, coverCredit: 'Ana Trails' });
        assert.equal(recredited.body.coverCredit, 'Ana Trails');
        assert.equal(recredited.body.warnings, undefined);
        const same = await api.call('update_chapter', { collectionId, coverStorageId: second });
        assert.equal(same.body.coverCredit, 'Ana Trails', 'sending the same cover again keeps its credit');

        const gone = await api.call('update_chapter', { collectionId, coverStorageId: null });
        assertOk(gone);
        assert.deepEqual([gone.body.coverStorageId, gone.body.coverUrl, gone.body.coverCredit], [null, null, null]);

        const orphan = await api.call('update_chapter', { collectionId, coverCredit: 'Ana Trails', coverLicence: 'x' });
        assertOk(orphan);
        assert.equal(orphan.body.coverCredit, null);
        assert.match(
          warningsOf(orphan),
          /^coverCredit was dropped: a credit is kept only with a photo \(send coverStorageId with it\)\.$/m,
        );
        assert.match(warningsOf(orphan), /^coverLicence was dropped/m);
      });
    }

    for (const t of transports) {
      it(`${t}: an uncredited cover blocks publishing; once credited, the release carries the credit`, async () => {
        const api = apiFor(suite.h, t, suite.h.alice.publishKey);
        try {
          const productId = await liveGuide(api, 'Cover gate');
          const cover = await storedImage(productId);
          const chapter = await api.call('create_chapter', { productId, name: 'Lakes', coverStorageId: cover });
          assertOk(chapter, 201);
          assert.match(warningsOf(chapter), /coverStorageId has no coverCredit/);
          const plain = await api.call('create_chapter', { productId, name: 'Without a cover' });
          assertOk(plain, 201);

          const findings = (await api.call('get_guide_readiness', { productId })).body.findings;
          const blocking = findings.filter((f: any) => f.severity === 'blocking');
          assert.deepEqual(
            blocking.map((f: any) => [f.code, f.where.kind, f.where.id, f.where.field]),
            [['photo_without_credit', 'chapter', chapter.body.collectionId, 'coverCredit']],
          );
          assert.match(blocking[0].message, /set coverCredit with update_chapter/);
          const refused = await api.call('publish_changes', { productId });
          assertError(refused, 'not_publishable');
          assert.deepEqual(
            refused.body.error.details.blocking.map((g: any) => g.code),
            ['photo_without_credit'],
          );

          assertOk(
            await api.call('update_chapter', {
              collectionId: chapter.body.collectionId,
              coverCredit: 'Maja Novak',
              coverCreditUrl: 'https://example.org/maja',
              coverLicence: 'CC BY 4.0',
            }),
          );
          assertOk(await api.call('publish_changes', { productId }));
          const snapshot = await latestSnapshot(suite.h, productId);
          const rows = snapshot.items.chapter;
          const released = rows[chapter.body.collectionId];
          assert.deepEqual(
            [released.coverStorageId, released.coverCredit, released.coverCreditUrl, released.coverLicence],
            [cover, 'Maja Novak', 'https://example.org/maja', 'CC BY 4.0'],
          );
          // A chapter without a credit keeps the shape it had before covers had credits: no new keys.
          const unchanged = rows[plain.body.collectionId];
          assert.ok(!('coverCredit' in unchanged) && !('coverLicence' in unchanged), JSON.stringify(unchanged));

          // The credit link is a link the guide holds: the link report names where.
          const report = (await api.call('get_link_report', { productId })).body;
          const held = JSON.stringify(report);
          assert.match(held, /https:\/\/example\.org\/maja/);
          assert.match(held, /coverCreditUrl/);
        } finally {
          await api.close();
        }
      });
    }
  });
}
