import type { OperationExample } from '../../core/operation.ts';

/** The draft the examples save and read back (one story: a guide to Slovenia's lakes and gorges). */
const draft = {
  heroMediaId: null,
  headline: "Slovenia's lakes and gorges, without the crowds",
  promise: 'Two lakes, one gorge and the hours when you have them to yourself: a map you can follow on your phone.',
  sections: [
    {
      heading: 'Who it is for',
      paragraphs: [
        'Walkers with a car and three to five days, in spring or early autumn.',
        '- Every spot with opening hours and fees\n- Parking and the first bus of the day',
      ],
    },
  ],
  highlights: ['Vintgar Gorge before the tour buses', 'A quiet swim at Ukanc on Lake Bohinj'],
  included: ['42 spots with pins, hours and fees', 'Parking and bus stops', 'Three itineraries'],
  sampleSpotKeys: ['vintgar-gorge', 'lake-bohinj'],
  gallery: [],
  faq: [
    {
      question: 'Do I need a car?',
      answer: 'It helps. Every spot also lists the nearest bus stop and the first bus of the day.',
    },
  ],
  searchTitle: 'Slovenia lakes and gorges: an offline map guide',
  searchDescription: 'Lake Bled, Lake Bohinj and Vintgar Gorge at quiet hours, with hours, fees and parking.',
};

// The examples' story has no photos (uploads are REST only): a save with none leaves them out.
const { heroMediaId: _hero, gallery: _gallery, ...withoutPhotos } = draft;

export const salesPageExamples = {
  get_sales_page: {
    input: { productId: 'gd_kKif6mbydYyv_ZEZ' },
    output: { productId: 'gd_kKif6mbydYyv_ZEZ', live: null, draft: { ...draft, updatedAt: 1795426380000 } },
  },
  save_sales_page_draft: {
    input: { productId: 'gd_kKif6mbydYyv_ZEZ', ...withoutPhotos },
    output: {
      productId: 'gd_kKif6mbydYyv_ZEZ',
      draft: { ...draft, heroMediaId: null, gallery: [], updatedAt: 1795426380000 },
    },
  },
} satisfies Record<string, OperationExample>;
