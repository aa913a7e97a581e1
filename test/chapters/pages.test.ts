import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { assertError, assertOk } from '../helpers/answers.ts';
import { describeOverTransports } from '../helpers/api.ts';
import { chaptersOf, newChapter, newGuide, newSpots, times } from '../helpers/fixtures.ts';

const para = (text = 'Words') => ({ kind: 'paragraph', text });

await describeOverTransports('set_chapter_pages', (suite, t) => {
  const { apis } = suite;
  let productId: string;
  let chapter: any;
  before(async () => {
    productId = await newGuide(apis[t], `${t} pages`);
    await newSpots(apis[t], productId, ['bled', 'bohinj', 'vintgar', 'old']);
    const old = (await apis[t].call('list_spots', { productId })).body.spots.find((s: any) => s.spotKey === 'old');
    assertOk(await apis[t].call('update_spot', { spotId: old.spotId, archived: true }));
    chapter = await newChapter(apis[t], productId, { name: 'Lakes', kind: 'chapter' });
  });
  const setPages = (pages: unknown, extra: Record<string, unknown> = {}) =>
    apis[t].call('set_chapter_pages', { collectionId: chapter.collectionId, pages, answer: 'full', ...extra });

  it('stores pages of every block kind as sent, empty optional texts left out; full replacement', async () => {
    const pages = [
      {
        title: 'Bled',
        blocks: [
          { kind: 'heading', text: 'Lake Bled' },
          { kind: 'heading', text: 'The island', level: 3 },
          para('- swim early\n- rent a pletna'),
          { kind: 'spot', spotKey: 'bled', note: 'Go at dawn' },
          { kind: 'map', title: 'Around the lake', spotKeys: ['bled', 'vintgar'] },
          { kind: 'callout', tone: 'tip', title: 'Parking', text: 'Park at the top.' },
          { kind: 'callout', tone: 'warning', text: 'No swimming at the castle.' },
          { kind: 'facts', title: 'At a glance', rows: [{ label: 'Entry', value: 'Free' }] },
        ],
      },
      { title: '', blocks: [{ kind: 'spot', spotKey: 'bohinj', note: '' }] },
    ];
    const a = await setPages(pages, { expectedUpdatedAt: chapter.updatedAt });
    assertOk(a);
    assert.deepEqual(a.body.pages[0], pages[0]);
    assert.deepEqual(a.body.pages[1], { blocks: [{ kind: 'spot', spotKey: 'bohinj' }] });
    assert.equal(a.body.warnings, undefined);
    assert.ok(a.body.updatedAt > chapter.updatedAt);
    const listed = (await chaptersOf(apis[t], productId)).find((c) => c.collectionId === chapter.collectionId);
    assert.deepEqual(listed.pages, a.body.pages);
    const b = await setPages([{ blocks: [para()] }], { expectedUpdatedAt: a.body.updatedAt });
    assert.deepEqual(b.body.pages, [{ blocks: [para()] }]);
    chapter = b.body;
    const archived = await setPages([{ blocks: [{ kind: 'spot', spotKey: 'old' }] }]);
    assertOk(archived);
    assert.deepEqual(archived.body.warnings, [
      'pages[0].blocks[0].spotKey: the spot "old" is archived; buyers will not see it here.',
    ]);
    chapter = (await setPages([])).body;
    assert.deepEqual(chapter.pages, []);
  });

  it('expectedUpdatedAt: a stale one is refused with stale_editor and nothing is written', async () => {
    const first = await setPages([{ blocks: [para('Mine')] }], { expectedUpdatedAt: chapter.updatedAt });
    assertOk(first);
    const stale = await setPages([{ blocks: [para('Theirs')] }], { expectedUpdatedAt: chapter.updatedAt });
    assertError(stale, 'stale_editor');
    assert.equal(stale.status === undefined || stale.status === 409, true);
    const listed = (await chaptersOf(apis[t], productId)).find((c) => c.collectionId === chapter.collectionId);
    assert.deepEqual(listed.pages, [{ blocks: [para('Mine')] }]);
    chapter = listed;
  });

  it('refusals name the block', async () => {
    const refusals: Array<[unknown, string]> = [
      [[{ blocks: [{ kind: 'spot', spotKey: 'nope' }] }], 'pages[0].blocks[0].spotKey'],
      [[{ blocks: [para(), { kind: 'map', spotKeys: ['bled', 'nope'] }] }], 'pages[0].blocks[1].spotKeys[1]'],
      [[{ blocks: [{ kind: 'map', spotKeys: ['bled', 'bled'] }] }], 'pages[0].blocks[0].spotKeys[1]'],
      [[{ blocks: [{ kind: 'map', spotKeys: [] }] }], 'pages[0].blocks[0].spotKeys'],
      [[{ blocks: [{ kind: 'photo' }] }], 'pages[0].blocks[0].mediaId'],
      [[{ blocks: [{ kind: 'photo', mediaId: 'med_x', storageId: 'blob_abcdefgh' }] }], 'pages[0].blocks[0].mediaId'],
      [[{ blocks: [{ kind: 'photo', mediaId: 'med_x', credit: 'Ana' }] }], 'pages[0].blocks[0].credit'],
      [[{ blocks: [{ kind: 'photo', mediaId: 'med_x' }] }], 'pages[0].blocks[0].mediaId'],
      [[{ blocks: [{ kind: 'photo', storageId: 'blob_abcdefgh', credit: 'Ana' }] }], 'pages[0].blocks[0].storageId'],
      [[{ blocks: [] }], 'pages[0].blocks'],
      [[{ blocks: [{ kind: 'heading', text: '' }] }], 'pages[0].blocks[0].text'],
      [[{ blocks: [{ kind: 'facts', rows: [] }] }], 'pages[0].blocks[0].rows'],
      [[{ blocks: [{ kind: 'facts', rows: [{ label: 'A', value: '' }] }] }], 'pages[0].blocks[0].rows[0].value'],
    ];
    for (const [pages, path] of refusals) assertError(await setPages(pages), 'invalid_request', path);
    const photo = await setPages([{ blocks: [{ kind: 'photo', mediaId: 'med_x' }] }]);
    assert.ok(photo.body.error.message.endsWith('no photo of this guide has this mediaId'));
    assertError(await setPages([{ blocks: [{ kind: 'video', url: 'x' }] }]), 'invalid_argument');
    assertError(await setPages([{ blocks: [{ kind: 'heading', text: 'H', level: 1 }] }]), 'invalid_argument');
    assertError(await setPages([{ blocks: [{ kind: 'callout', tone: 'info', text: 'x' }] }]), 'invalid_argument');
    assertError(await setPages([{ blocks: [para()], extra: true }]), 'invalid_argument');
    const collection = await newChapter(apis[t], productId, { name: 'A set' });
    const r = await apis[t].call('set_chapter_pages', {
      collectionId: collection.collectionId,
      pages: [{ blocks: [para()] }],
    });
    assertError(r, 'invalid_request', 'pages');
    const listed = (await chaptersOf(apis[t], productId)).find((c) => c.collectionId === chapter.collectionId);
    assert.deepEqual(listed.pages, chapter.pages, 'nothing written');
  });

  it('bounds: 50 pages, 40 blocks a page, 200 spots a map, 20 fact rows, every text limit', async () => {
    const fits = [
      ...times(48, () => ({ blocks: [para()] })),
      { title: 't'.repeat(120), blocks: times(40, () => para('p'.repeat(10_000))) },
      {
        blocks: [
          { kind: 'heading', text: 'h'.repeat(160) },
          { kind: 'spot', spotKey: 'bled', note: 'n'.repeat(300) },
          { kind: 'callout', tone: 'tip', title: 't'.repeat(120), text: 'c'.repeat(2000) },
          {
            kind: 'facts',
            title: 't'.repeat(120),
            rows: times(20, () => ({ label: 'l'.repeat(60), value: 'v'.repeat(300) })),
          },
          { kind: 'map', title: 't'.repeat(120), spotKeys: ['bled'] },
        ],
      },
    ];
    assertOk(await setPages(fits));
    const over: Array<[unknown, string]> = [
      [times(51, () => ({ blocks: [para()] })), 'pages'],
      [[{ blocks: times(41, () => para()) }], 'pages[0].blocks'],
      [[{ title: 't'.repeat(121), blocks: [para()] }], 'pages[0].title'],
      [[{ blocks: [para('p'.repeat(10_001))] }], 'pages[0].blocks[0].text'],
      [[{ blocks: [{ kind: 'heading', text: 'h'.repeat(161) }] }], 'pages[0].blocks[0].text'],
      [[{ blocks: [{ kind: 'spot', spotKey: 'bled', note: 'n'.repeat(301) }] }], 'pages[0].blocks[0].note'],
      [[{ blocks: [{ kind: 'callout', tone: 'tip', text: 'c'.repeat(2001) }] }], 'pages[0].blocks[0].text'],
      [[{ blocks: [{ kind: 'map', spotKeys: times(201, (i) => `k${i}`) }] }], 'pages[0].blocks[0].spotKeys'],
      [
        [{ blocks: [{ kind: 'facts', rows: times(21, () => ({ label: 'l', value: 'v' })) }] }],
        'pages[0].blocks[0].rows',
      ],
      [
        [{ blocks: [{ kind: 'facts', rows: [{ label: 'l'.repeat(61), value: 'v' }] }] }],
        'pages[0].blocks[0].rows[0].label',
      ],
      [
        [{ blocks: [{ kind: 'photo', storageId: 'blob_abcdefgh', caption: 'c'.repeat(301) }] }],
        'pages[0].blocks[0].caption',
      ],
      [
        [{ blocks: [{ kind: 'photo', storageId: 'blob_abcdefgh', credit: 'c'.repeat(81) }] }],
        'pages[0].blocks[0].credit',
      ],
    ];
    for (const [pages, path] of over) assertError(await setPages(pages), 'invalid_request', path);
  });

  it("delete_spot removes the spot's cards and map pins; empty maps and pages go", async () => {
    const guide = await newGuide(apis[t], `${t} spot pages`);
    await newSpots(apis[t], guide, ['gone', 'stays']);
    const c = await newChapter(apis[t], guide, { name: 'C', kind: 'chapter' });
    const set = await apis[t].call('set_chapter_pages', {
      collectionId: c.collectionId,
      answer: 'full',
      pages: [
        {
          title: 'Only the gone spot',
          blocks: [
            { kind: 'spot', spotKey: 'gone' },
            { kind: 'map', spotKeys: ['gone'] },
          ],
        },
        {
          blocks: [
            para(),
            { kind: 'spot', spotKey: 'gone' },
            { kind: 'map', spotKeys: ['gone', 'stays'] },
            { kind: 'spot', spotKey: 'stays' },
          ],
        },
      ],
    });
    assertOk(set);
    const gone = (await apis[t].call('list_spots', { productId: guide })).body.spots.find(
      (s: any) => s.spotKey === 'gone',
    );
    assertOk(await apis[t].call('delete_spot', { spotId: gone.spotId }));
    const after = (await chaptersOf(apis[t], guide))[0];
    assert.deepEqual(after.pages, [
      { blocks: [para(), { kind: 'map', spotKeys: ['stays'] }, { kind: 'spot', spotKey: 'stays' }] },
    ]);
    assert.ok(after.updatedAt > set.body.updatedAt, 'an editor holding the old pages gets stale_editor');
    assertError(
      await apis[t].call('set_chapter_pages', {
        collectionId: c.collectionId,
        pages: set.body.pages,
        expectedUpdatedAt: set.body.updatedAt,
      }),
      'stale_editor',
    );
  });
});
