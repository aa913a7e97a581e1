import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertError, assertOk } from '../helpers/answers.ts';
import { transports, useServer } from '../helpers/api.ts';
import { testSetups } from '../helpers/blob-stores.ts';
import { newGuide, newPhoto, newSpots, salesPageOf } from '../helpers/fixtures.ts';

const EMPTY = {
  heroMediaId: null,
  headline: null,
  promise: null,
  sections: [],
  highlights: [],
  included: [],
  sampleSpotKeys: [],
  gallery: [],
  faq: [],
  searchTitle: null,
  searchDescription: null,
};

for (const { dialect, blobStore, skip, name } of await testSetups()) {
  describe(`sales page (${name})`, { skip }, () => {
    const suite = useServer({ dialect, blobStore, env: { RATE_LIMIT_UPLOADS_PER_MINUTE: '1000' } });

    for (const t of transports) {
      describe(`over ${t}`, () => {
        const api = () => suite.apis[t];

        it('a new guide has no live page and no draft', async () => {
          const productId = await newGuide(api());
          assert.deepEqual(await salesPageOf(api(), productId), { productId, live: null, draft: null });
        });

        it('saves the whole draft, answers it with updatedAt, and get reads the same; never publishes', async () => {
          const productId = await newGuide(api());
          await newSpots(api(), productId, ['bled', 'bohinj']);
          const hero = await newPhoto(suite.h, productId, 'Ana Novak');
          const other = await newPhoto(suite.h, productId, 'Marko Kos');
          const content = {
            heroMediaId: hero,
            headline: 'Lakes without crowds',
            promise: 'The quiet hours at every lake.',
            sections: [{ heading: 'Who it is for', paragraphs: ['Walkers.', '- Bullets\n- too'] }],
            highlights: ['Sunrise at Bled'],
            included: ['42 spots'],
            sampleSpotKeys: ['bohinj', 'bled'],
            gallery: [{ mediaId: other, caption: 'Bohinj at dawn' }, { mediaId: hero }],
            faq: [{ question: 'Car?', answer: 'Helps.' }],
            searchTitle: 'Lakes guide',
            searchDescription: 'Slovenian lakes at quiet hours.',
          };
          const saved = await api().call('save_sales_page_draft', { productId, ...content });
          assertOk(saved);
          assert.equal(saved.body.warnings, undefined, 'credited photos and live spots warn about nothing');
          const { updatedAt, ...stored } = saved.body.draft;
          assert.deepEqual(stored, content);
          assert.equal(typeof updatedAt, 'number');
          assert.deepEqual(await salesPageOf(api(), productId), { productId, live: null, draft: saved.body.draft });

          // What was read back, sent again, stores the same.
          const again = await api().call('save_sales_page_draft', {
            productId,
            ...stored,
            expectedUpdatedAt: updatedAt,
          });
          assertOk(again);
          assert.deepEqual({ ...again.body.draft, updatedAt: 0 }, { ...stored, updatedAt: 0 });
          assert.ok(again.body.draft.updatedAt > updatedAt);
        });

        it('replaces the draft whole: a field left out is cleared; empty texts and paragraphs are left out', async () => {
          const productId = await newGuide(api());
          assertOk(
            await api().call('save_sales_page_draft', {
              productId,
              headline: 'First',
              highlights: ['One'],
              faq: [{ question: 'Q', answer: 'A' }],
            }),
          );
          const second = await api().call('save_sales_page_draft', {
            productId,
            promise: '   ',
            headline: '',
            searchTitle: 'Search me',
            sections: [{ heading: 'Only', paragraphs: ['', 'Kept', ' '] }],
          });
          assertOk(second);
          const { updatedAt: _, ...draft } = second.body.draft;
          assert.deepEqual(draft, {
            ...EMPTY,
            searchTitle: 'Search me',
            sections: [{ heading: 'Only', paragraphs: ['Kept'] }],
          });
          const cleared = await api().call('save_sales_page_draft', { productId });
          assertOk(cleared);
          assert.deepEqual({ ...cleared.body.draft, updatedAt: 0 }, { ...EMPTY, updatedAt: 0 });
        });

        it("refuses photos and spots that are not this guide's, and repeats; writes nothing then", async () => {
          const productId = await newGuide(api());
          const otherGuide = await newGuide(api(), 'Other');
          await newSpots(api(), productId, ['bled']);
          await newSpots(api(), otherGuide, ['vintgar']);
          const mine = await newPhoto(suite.h, productId, 'Ana Novak');
          const theirs = await newPhoto(suite.h, otherGuide, 'Ana Novak');
          const first = await api().call('save_sales_page_draft', { productId, headline: 'Kept' });
          assertOk(first);
          const refusals: Array<[Record<string, unknown>, string]> = [
            [{ heroMediaId: theirs }, 'heroMediaId'],
            [{ heroMediaId: 'med_doesnotexist00' }, 'heroMediaId'],
            [{ gallery: [{ mediaId: mine }, { mediaId: theirs }] }, 'gallery[1].mediaId'],
            [{ gallery: [{ mediaId: mine }, { mediaId: mine }] }, 'gallery[1].mediaId'],
            [{ sampleSpotKeys: ['bled', 'vintgar'] }, 'sampleSpotKeys[1]'],
            [{ sampleSpotKeys: ['bled', 'nowhere'] }, 'sampleSpotKeys[1]'],
            [{ sampleSpotKeys: ['bled', 'bled'] }, 'sampleSpotKeys[1]'],
          ];
          for (const [fields, path] of refusals) {
            const a = await api().call('save_sales_page_draft', { productId, headline: 'Lost', ...fields });
            assertError(a, 'invalid_request', path);
          }
          assert.deepEqual((await salesPageOf(api(), productId)).draft, first.body.draft, 'nothing was written');
        });

        it('warns about a photo without a credit and an archived sample spot, and keeps them', async () => {
          const productId = await newGuide(api());
          await newSpots(api(), productId, ['bled', 'old']);
          const spots = await api().call('list_spots', { productId });
          const old = spots.body.spots.find((s: any) => s.spotKey === 'old');
          assertOk(await api().call('update_spot', { spotId: old.spotId, archived: true }));
          const uncredited = await newPhoto(suite.h, productId);
          const a = await api().call('save_sales_page_draft', {
            productId,
            heroMediaId: uncredited,
            gallery: [{ mediaId: uncredited, caption: '' }],
            sampleSpotKeys: ['bled', 'old'],
          });
          assertOk(a);
          assert.equal(a.body.warnings.length, 3, JSON.stringify(a.body.warnings));
          assert.match(a.body.warnings[0], /^heroMediaId: this photo has no credit/);
          assert.match(a.body.warnings[1], /^gallery\[0\]\.mediaId: this photo has no credit/);
          assert.match(a.body.warnings[2], /^sampleSpotKeys\[1\]: the spot "old" is archived/);
          assert.deepEqual(a.body.draft.gallery, [{ mediaId: uncredited }], 'an empty caption is left out');
          assert.deepEqual(a.body.draft.sampleSpotKeys, ['bled', 'old']);
        });

        it('expectedUpdatedAt: a changed draft answers 409 stale_editor and nothing is written', async () => {
          const productId = await newGuide(api());
          assertError(
            await api().call('save_sales_page_draft', { productId, headline: 'X', expectedUpdatedAt: 5 }),
            'stale_editor',
          );
          assert.equal((await salesPageOf(api(), productId)).draft, null, 'no draft was made');
          const first = await api().call('save_sales_page_draft', {
            productId,
            headline: 'A',
            expectedUpdatedAt: null,
          });
          assertOk(first);
          const stamp = first.body.draft.updatedAt;
          for (const expectedUpdatedAt of [null, stamp - 1, stamp + 1]) {
            assertError(
              await api().call('save_sales_page_draft', { productId, headline: 'B', expectedUpdatedAt }),
              'stale_editor',
            );
          }
          assert.deepEqual((await salesPageOf(api(), productId)).draft, first.body.draft);
          const second = await api().call('save_sales_page_draft', {
            productId,
            headline: 'C',
            expectedUpdatedAt: stamp,
          });
          assertOk(second);
          assert.equal(second.body.draft.headline, 'C');
        });

        it('answers invalid_argument for unknown fields and wrong types', async () => {
          const productId = await newGuide(api());
          assertError(await api().call('save_sales_page_draft', { productId, title: 'x' }), 'invalid_argument');
          assertError(await api().call('save_sales_page_draft', { productId, highlights: 'x' }), 'invalid_argument');
          assertError(
            await api().call('save_sales_page_draft', { productId, gallery: [{ mediaId: 'med_x', credit: 'Me' }] }),
            'invalid_argument',
          );
          assertError(
            await api().call('save_sales_page_draft', { productId, expectedUpdatedAt: '1' }),
            'invalid_argument',
          );
        });
      });
    }

    it("a read-only key cannot save; the guide must be the caller's", async () => {
      const productId = await newGuide(suite.apis.rest);
      const { apiFor } = await import('../helpers/api.ts');
      const reader = apiFor(suite.h, 'rest', suite.h.alice.readKey);
      try {
        assertError(await reader.call('save_sales_page_draft', { productId, headline: 'x' }), 'api_scope_required');
        assertOk(await reader.call('get_sales_page', { productId }));
      } finally {
        await reader.close();
      }
    });
  });
}
