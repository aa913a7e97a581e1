import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertError, assertOk } from '../helpers/answers.ts';
import { transports, useServer } from '../helpers/api.ts';
import { testDialects } from '../helpers/dialects.ts';
import { newGuide, newPhoto, newSpots, salesPageOf, times } from '../helpers/fixtures.ts';

const chars = (n: number) => `${'é'.repeat(n - 1)}🌄`; // n characters, the last one two UTF-16 units
const section = (paragraphs: string[] = ['p']) => ({ heading: 'H', paragraphs });
const qa = { question: 'Q?', answer: 'A.' };

/** Each bound: the largest value accepted, and the one just past it refused at this path. */
const BOUNDS: Array<{ field: string; fits: unknown; over: unknown; path: string }> = [
  { field: 'headline', fits: chars(120), over: chars(121), path: 'headline' },
  { field: 'promise', fits: chars(300), over: chars(301), path: 'promise' },
  { field: 'searchTitle', fits: chars(70), over: chars(71), path: 'searchTitle' },
  { field: 'searchDescription', fits: chars(160), over: chars(161), path: 'searchDescription' },
  { field: 'sections', fits: times(12, () => section()), over: times(13, () => section()), path: 'sections' },
  {
    field: 'sections',
    fits: [{ heading: chars(120), paragraphs: times(20, () => chars(3000)) }],
    over: [section(times(21, () => 'p'))],
    path: 'sections[0].paragraphs',
  },
  { field: 'sections', fits: [section()], over: [section(['p', chars(3001)])], path: 'sections[0].paragraphs[1]' },
  {
    field: 'sections',
    fits: [section()],
    over: [{ heading: chars(121), paragraphs: [] }],
    path: 'sections[0].heading',
  },
  { field: 'sections', fits: [section()], over: [{ heading: '  ', paragraphs: [] }], path: 'sections[0].heading' },
  { field: 'highlights', fits: times(10, () => chars(160)), over: times(11, () => 'h'), path: 'highlights' },
  { field: 'highlights', fits: ['h'], over: ['h', chars(161)], path: 'highlights[1]' },
  { field: 'highlights', fits: ['h'], over: [''], path: 'highlights[0]' },
  { field: 'included', fits: times(20, () => chars(160)), over: times(21, () => 'i'), path: 'included' },
  { field: 'included', fits: ['i'], over: [chars(161)], path: 'included[0]' },
  { field: 'faq', fits: times(20, () => qa), over: times(21, () => qa), path: 'faq' },
  {
    field: 'faq',
    fits: [{ question: chars(200), answer: chars(2000) }],
    over: [{ question: chars(201), answer: 'A' }],
    path: 'faq[0].question',
  },
  { field: 'faq', fits: [qa], over: [{ question: 'Q', answer: chars(2001) }], path: 'faq[0].answer' },
  { field: 'faq', fits: [qa], over: [{ question: 'Q', answer: ' ' }], path: 'faq[0].answer' },
];

for (const { dialect, skip } of await testDialects()) {
  describe(`sales page bounds (${dialect})`, { skip }, () => {
    const suite = useServer({ dialect, env: { RATE_LIMIT_UPLOADS_PER_MINUTE: '1000' } });

    for (const t of transports) {
      it(`every text and list bound over ${t}: the limit fits, one more is invalid_request naming the field`, async () => {
        const api = suite.apis[t];
        const productId = await newGuide(api);
        for (const { field, fits, over, path } of BOUNDS) {
          const ok = await api.call('save_sales_page_draft', { productId, [field]: fits });
          assertOk(ok);
          assert.deepEqual(ok.body.draft[field], fits, field);
          assertError(await api.call('save_sales_page_draft', { productId, [field]: over }), 'invalid_request', path);
          assert.deepEqual((await salesPageOf(api, productId)).draft[field], fits, `${path}: nothing written`);
        }
      });
    }

    it('at most 12 sample spots and 24 gallery photos', async () => {
      const api = suite.apis.rest;
      const productId = await newGuide(api);
      const keys = times(13, (i) => `spot-${i}`);
      await newSpots(api, productId, keys);
      assertOk(await api.call('save_sales_page_draft', { productId, sampleSpotKeys: keys.slice(0, 12) }));
      assertError(
        await api.call('save_sales_page_draft', { productId, sampleSpotKeys: keys }),
        'invalid_request',
        'sampleSpotKeys',
      );
      const photos: string[] = [];
      for (let i = 0; i < 25; i++) photos.push(await newPhoto(suite.h, productId, 'Ana Novak'));
      const gallery = photos.map((mediaId) => ({ mediaId }));
      assertOk(await api.call('save_sales_page_draft', { productId, gallery: gallery.slice(0, 24) }));
      assertError(await api.call('save_sales_page_draft', { productId, gallery }), 'invalid_request', 'gallery');
      assertError(
        await api.call('save_sales_page_draft', { productId, gallery: [{ mediaId: photos[0], caption: chars(301) }] }),
        'invalid_request',
        'gallery[0].caption',
      );
    });
  });
}
