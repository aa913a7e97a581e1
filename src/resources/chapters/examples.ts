import type { OperationExample } from '../../core/operation.ts';

const created = {
  collectionId: 'col_jAzCD-vO8S8uM5dc',
  productId: 'gd_kKif6mbydYyv_ZEZ',
  name: 'Lakes and gorges',
  slug: 'lakes-and-gorges',
  description: null,
  kind: 'chapter',
  body: ['Two lakes an hour apart and the gorge between them: walk them in this order.'],
  intro: null,
  pages: [],
  order: 1,
  coverUrl: null,
  coverStorageId: null,
  coverCredit: null,
  coverCreditUrl: null,
  coverLicence: null,
  members: [],
  memberCount: 0,
  createdAt: 1795428000000,
  updatedAt: 1795428000000,
};
const renamed = { ...created, name: 'Lakes and gorges of the Julian Alps', updatedAt: 1795428000001 };
const withMembers = {
  ...renamed,
  members: [
    { spotKey: 'vintgar-gorge', memberCollectionId: null, order: 1 },
    { spotKey: 'lake-bohinj', memberCollectionId: null, order: 2 },
  ],
  memberCount: 2,
  updatedAt: 1795428000002,
};
const withIntro = {
  ...withMembers,
  intro: {
    sections: [
      {
        kind: 'prose',
        title: 'Before you go',
        deck: 'Early starts beat the crowds at both lakes.',
        paragraphs: ['Vintgar opens at eight; the first hour is the quietest.'],
      },
      { kind: 'prose', title: 'At a glance', cells: [{ title: 'Best months', body: 'May, June and September' }] },
    ],
    coverKicker: 'Julian Alps',
    coverTitle: 'Lakes and gorges',
    coverAuthor: 'Maja Novak',
  },
  updatedAt: 1795428000003,
};
const withPages = {
  ...withIntro,
  pages: [
    {
      title: 'A day from Bled',
      blocks: [
        { kind: 'heading', text: 'Morning: Vintgar Gorge', level: 2 },
        { kind: 'spot', spotKey: 'vintgar-gorge', note: 'Book the 8:00 slot in summer.' },
        { kind: 'callout', tone: 'tip', text: 'Park at the upper lot and walk down.' },
        { kind: 'facts', title: 'At a glance', rows: [{ label: 'Walk', value: '1.6 km one way' }] },
        { kind: 'map', title: 'The day', spotKeys: ['vintgar-gorge', 'lake-bohinj'] },
      ],
    },
  ],
  updatedAt: 1795428000004,
};
const listed = { ...withPages, updatedAt: 1795428000005 };

/** What the members, intro and pages writes answer by default: the fields of list_chapters' compact view. */
function compact(
  chapter: Pick<typeof created, 'collectionId' | 'kind' | 'name' | 'slug' | 'order' | 'updatedAt' | 'memberCount'>,
) {
  const { collectionId, kind, name, slug, order, updatedAt, memberCount } = chapter;
  return { collectionId, kind, name, slug, order, updatedAt, memberCount };
}

/**
 * The chapter of the Slovenia story (recorded from a real run): the two spots, an intro and one page.
 */
export const chaptersExamples = {
  list_chapters: {
    input: { productId: 'gd_kKif6mbydYyv_ZEZ' },
    output: { productId: 'gd_kKif6mbydYyv_ZEZ', count: 1, chapters: [listed], total: 1 },
  },
  create_chapter: {
    input: {
      productId: 'gd_kKif6mbydYyv_ZEZ',
      name: 'Lakes and gorges',
      kind: 'chapter',
      slug: 'lakes-and-gorges',
      body: ['Two lakes an hour apart and the gorge between them: walk them in this order.'],
    },
    output: created,
  },
  update_chapter: {
    input: {
      collectionId: 'col_jAzCD-vO8S8uM5dc',
      name: 'Lakes and gorges of the Julian Alps',
      expectedUpdatedAt: 1795428000000,
    },
    output: renamed,
  },
  reorder_chapter: {
    input: { collectionId: 'col_jAzCD-vO8S8uM5dc' },
    output: { ok: true, collectionId: 'col_jAzCD-vO8S8uM5dc', order: 1 },
  },
  delete_chapter: {
    input: { collectionId: 'col_jAzCD-vO8S8uM5dc' },
    output: { ok: true, collectionId: 'col_jAzCD-vO8S8uM5dc', deleted: true },
  },
  set_chapter_members: {
    input: {
      collectionId: 'col_jAzCD-vO8S8uM5dc',
      members: [{ spotKey: 'vintgar-gorge' }, { spotKey: 'lake-bohinj' }],
    },
    output: compact(withMembers),
  },
  set_chapter_intro: {
    input: { collectionId: 'col_jAzCD-vO8S8uM5dc', intro: withIntro.intro },
    output: compact(withIntro),
  },
  set_chapter_pages: {
    input: { collectionId: 'col_jAzCD-vO8S8uM5dc', pages: withPages.pages },
    output: compact(withPages),
  },
} satisfies Record<string, OperationExample>;
