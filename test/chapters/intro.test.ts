import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { assertError, assertOk } from '../helpers/answers.ts';
import { describeOverTransports } from '../helpers/api.ts';
import { chaptersOf, newChapter, newGuide, times } from '../helpers/fixtures.ts';

await describeOverTransports('set_chapter_intro', (suite, t) => {
  const { apis } = suite;
  let productId: string;
  let front: any;
  let lakes: any;
  let views: any;
  before(async () => {
    productId = await newGuide(apis[t], `${t} intro`);
    front = await newChapter(apis[t], productId, { name: 'Front matter', kind: 'chapter' });
    lakes = await newChapter(apis[t], productId, { name: 'Lakes', kind: 'chapter' });
    views = await newChapter(apis[t], productId, { name: 'Views' });
  });
  const setIntro = (intro: unknown, id = front.collectionId) =>
    apis[t].call('set_chapter_intro', { collectionId: id, intro, answer: 'full' });

  it('stores every kind of section, colours lower case, empty texts and paragraphs left out', async () => {
    const intro = {
      coverKicker: 'A guide',
      coverTitle: 'Slovenia',
      coverAuthor: '',
      sections: [
        { title: 'Welcome', kicker: 'Hello', deck: 'Why go', paragraphs: ['One', '', '- a\n- b'] },
        {
          kind: 'prose',
          title: 'At a glance',
          cells: [
            { title: 'Best time', body: 'June' },
            { title: 'Days', body: '' },
          ],
        },
        {
          kind: 'chapters',
          title: 'Chapters',
          items: [{ collectionId: lakes.collectionId, title: 'Lakes', line: 'Blue water', color: '#A0B1C2' }],
        },
        { kind: 'collections', title: 'Collections', items: [{ collectionId: views.collectionId, title: '' }] },
      ],
    };
    const a = await setIntro(intro);
    assertOk(a);
    assert.deepEqual(a.body.intro, {
      coverKicker: 'A guide',
      coverTitle: 'Slovenia',
      sections: [
        { kind: 'prose', title: 'Welcome', kicker: 'Hello', deck: 'Why go', paragraphs: ['One', '- a\n- b'] },
        { kind: 'prose', title: 'At a glance', cells: [{ title: 'Best time', body: 'June' }, { title: 'Days' }] },
        {
          kind: 'chapters',
          title: 'Chapters',
          items: [{ collectionId: lakes.collectionId, title: 'Lakes', line: 'Blue water', color: '#a0b1c2' }],
        },
        { kind: 'collections', title: 'Collections', items: [{ collectionId: views.collectionId }] },
      ],
    });
    assert.equal(a.body.warnings, undefined);
    const listed = (await chaptersOf(apis[t], productId)).find((c) => c.collectionId === front.collectionId);
    assert.deepEqual(listed.intro, a.body.intro);
    // Sent back as read, it stores the same.
    assert.deepEqual((await setIntro(a.body.intro)).body.intro, a.body.intro);
  });

  it('null, and an intro with nothing in it, remove the intro', async () => {
    assertOk(await setIntro({ sections: [{ title: 'X' }] }));
    assert.equal((await setIntro(null)).body.intro, null);
    assertOk(await setIntro({ sections: [{ title: 'X' }] }));
    assert.equal((await setIntro({ sections: [] })).body.intro, null);
    assert.equal((await setIntro({ coverKicker: '', sections: [] })).body.intro, null);
    assert.deepEqual((await setIntro({ coverTitle: 'Cover only', sections: [] })).body.intro, {
      coverTitle: 'Cover only',
      sections: [],
    });
    assertError(await setIntro(undefined), 'invalid_argument', 'intro');
    assertError(await setIntro({}), 'invalid_argument', 'intro.sections');
  });

  it('a photoCredit without a photo is dropped with a warning, never kept silently', async () => {
    const a = await setIntro({
      sections: [
        { title: 'Prose', photoCredit: 'Ana Novak' },
        {
          kind: 'collections',
          title: 'Sets',
          items: [{ collectionId: views.collectionId, photoCredit: 'Ana Novak' }],
        },
      ],
    });
    assertOk(a);
    assert.equal(a.body.intro.sections[0].photoCredit, undefined);
    assert.equal(a.body.intro.sections[1].items[0].photoCredit, undefined);
    assert.deepEqual(a.body.warnings, [
      'intro.sections[0].photoCredit was dropped: a credit is kept only with a photo (send photoStorageId with it).',
      'intro.sections[1].items[0].photoCredit was dropped: a credit is kept only with a photo (send photoStorageId with it).',
    ]);
  });

  it('storage ids are checked: one nobody uploaded is refused like a missing one', async () => {
    const refused = 'no image uploaded with target=blob by you has this storageId';
    const cases: Array<[unknown, string]> = [
      [{ coverAuthorPhotoStorageId: 'blob_abcdefgh', sections: [] }, 'intro.coverAuthorPhotoStorageId'],
      [
        { sections: [{ title: 'P', photoStorageId: 'blob_abcdefgh', photoCredit: 'Ana' }] },
        'intro.sections[0].photoStorageId',
      ],
      [
        {
          sections: [
            {
              kind: 'collections',
              title: 'C',
              items: [{ collectionId: views.collectionId, photoStorageId: 'blob_x1234567' }],
            },
          ],
        },
        'intro.sections[0].items[0].photoStorageId',
      ],
    ];
    for (const [intro, path] of cases) {
      const r = await setIntro(intro);
      assertError(r, 'invalid_request', path);
      assert.ok(r.body.error.message.endsWith(refused), r.body.error.message);
    }
  });

  it('every rule between fields, naming the field', async () => {
    const before = (await chaptersOf(apis[t], productId)).find((c) => c.collectionId === front.collectionId).intro;
    const refusals: Array<[unknown, string]> = [
      [{ sections: [{ title: 'P', cells: [{ title: 'c' }], paragraphs: ['text'] }] }, 'intro.sections[0].cells'],
      [
        { sections: [{ title: 'P', cells: [{ title: 'c' }], photoStorageId: 'blob_abcdefgh' }] },
        'intro.sections[0].photoStorageId',
      ],
      [{ sections: [{ kind: 'chapters', title: 'C', paragraphs: ['x'] }] }, 'intro.sections[0].paragraphs'],
      [{ sections: [{ kind: 'collections', title: 'C', cells: [{ title: 'x' }] }] }, 'intro.sections[0].cells'],
      [
        { sections: [{ kind: 'chapters', title: 'C', photoStorageId: 'blob_abcdefgh' }] },
        'intro.sections[0].photoStorageId',
      ],
      [{ sections: [{ title: 'P', items: [] }] }, 'intro.sections[0].items'],
      [
        {
          sections: [{ kind: 'collections', title: 'C', items: [{ collectionId: views.collectionId, line: 'x' }] }],
        },
        'intro.sections[0].items[0].line',
      ],
      [
        {
          sections: [
            { kind: 'collections', title: 'C', items: [{ collectionId: views.collectionId, color: '#000000' }] },
          ],
        },
        'intro.sections[0].items[0].color',
      ],
      [
        {
          sections: [
            {
              kind: 'chapters',
              title: 'C',
              items: [{ collectionId: lakes.collectionId, photoStorageId: 'blob_abcdefgh' }],
            },
          ],
        },
        'intro.sections[0].items[0].photoStorageId',
      ],
      [
        {
          sections: [
            {
              kind: 'chapters',
              title: 'C',
              items: [{ collectionId: lakes.collectionId }, { collectionId: lakes.collectionId }],
            },
          ],
        },
        'intro.sections[0].items[1].collectionId',
      ],
      [
        { sections: [{ kind: 'chapters', title: 'C', items: [{ collectionId: 'col_unknown' }] }] },
        'intro.sections[0].items[0].collectionId',
      ],
      [
        {
          sections: [{ kind: 'chapters', title: 'C', items: [{ collectionId: lakes.collectionId, color: 'red' }] }],
        },
        'intro.sections[0].items[0].color',
      ],
      [
        {
          sections: [{ kind: 'chapters', title: 'C', items: [{ collectionId: lakes.collectionId, color: '#12345' }] }],
        },
        'intro.sections[0].items[0].color',
      ],
      [{ sections: [{ title: '' }] }, 'intro.sections[0].title'],
    ];
    for (const [intro, path] of refusals) assertError(await setIntro(intro), 'invalid_request', path);
    assertError(
      await setIntro({ sections: [{ kind: 'gallery', title: 'G' }] }),
      'invalid_argument',
      'intro.sections[0].kind',
    );
    assertError(await setIntro({ sections: [{ title: 'T', extra: 1 }] }), 'invalid_argument');
    // The same item may appear once in each of two sections.
    assertOk(
      await setIntro({
        sections: [
          { kind: 'chapters', title: 'A', items: [{ collectionId: lakes.collectionId }] },
          { kind: 'chapters', title: 'B', items: [{ collectionId: lakes.collectionId }] },
        ],
      }),
    );
    assertOk(await setIntro(before));
  });

  it('bounds: sections 20, items 60, paragraphs 30 of 10,000, cells 8, and every text limit', async () => {
    const fits = {
      coverKicker: 'k'.repeat(120),
      coverTitle: 't'.repeat(160),
      coverAuthor: 'a'.repeat(120),
      sections: [
        ...times(17, (i) => ({ title: `S${i}` })),
        {
          kicker: 'k'.repeat(120),
          title: 't'.repeat(160),
          deck: 'd'.repeat(500),
          paragraphs: times(30, () => 'p'.repeat(10_000)),
        },
        { title: 'Cells', cells: times(8, () => ({ title: 't'.repeat(120), body: 'b'.repeat(600) })) },
        {
          kind: 'chapters',
          title: 'Items',
          items: [{ collectionId: lakes.collectionId, title: 't'.repeat(120), line: 'l'.repeat(200) }],
        },
      ],
    };
    assertOk(await setIntro(fits));
    const sixty: string[] = [];
    for (let i = 0; i < 60; i++)
      sixty.push((await newChapter(apis.rest, productId, { name: `Set ${i}` })).collectionId);
    const itemsFit = await setIntro({
      sections: [{ kind: 'collections', title: 'C', items: sixty.map((collectionId) => ({ collectionId })) }],
    });
    assertOk(itemsFit);
    assert.equal(itemsFit.body.intro.sections[0].items.length, 60);
    const sixtyOne = [...sixty, views.collectionId].map((collectionId) => ({ collectionId }));
    assertError(
      await setIntro({ sections: [{ kind: 'collections', title: 'C', items: sixtyOne }] }),
      'invalid_request',
      'intro.sections[0].items',
    );
    const over: Array<[unknown, string]> = [
      [{ sections: times(21, (i) => ({ title: `S${i}` })) }, 'intro.sections'],
      [{ sections: [{ title: 'P', paragraphs: times(31, () => 'p') }] }, 'intro.sections[0].paragraphs'],
      [{ sections: [{ title: 'P', paragraphs: ['p'.repeat(10_001)] }] }, 'intro.sections[0].paragraphs[0]'],
      [{ sections: [{ title: 'P', cells: times(9, () => ({ title: 'c' })) }] }, 'intro.sections[0].cells'],
      [{ sections: [{ title: 'P', cells: [{ title: 'c'.repeat(121) }] }] }, 'intro.sections[0].cells[0].title'],
      [
        { sections: [{ title: 'P', cells: [{ title: 'c', body: 'b'.repeat(601) }] }] },
        'intro.sections[0].cells[0].body',
      ],
      [{ coverKicker: 'k'.repeat(121), sections: [] }, 'intro.coverKicker'],
      [{ coverTitle: 't'.repeat(161), sections: [] }, 'intro.coverTitle'],
      [{ coverAuthor: 'a'.repeat(121), sections: [] }, 'intro.coverAuthor'],
      [{ sections: [{ title: 't'.repeat(161) }] }, 'intro.sections[0].title'],
      [{ sections: [{ title: 'T', kicker: 'k'.repeat(121) }] }, 'intro.sections[0].kicker'],
      [{ sections: [{ title: 'T', deck: 'd'.repeat(501) }] }, 'intro.sections[0].deck'],
      [{ sections: [{ title: 'T', photoCredit: 'c'.repeat(81) }] }, 'intro.sections[0].photoCredit'],
      [
        {
          sections: [
            {
              kind: 'chapters',
              title: 'C',
              items: [{ collectionId: lakes.collectionId, title: 't'.repeat(121) }],
            },
          ],
        },
        'intro.sections[0].items[0].title',
      ],
      [
        {
          sections: [
            {
              kind: 'chapters',
              title: 'C',
              items: [{ collectionId: lakes.collectionId, line: 'l'.repeat(201) }],
            },
          ],
        },
        'intro.sections[0].items[0].line',
      ],
    ];
    for (const [intro, path] of over) assertError(await setIntro(intro), 'invalid_request', path);
  });

  it('collections carry no intro', async () => {
    const r = await setIntro({ sections: [{ title: 'X' }] }, views.collectionId);
    assertError(r, 'invalid_request', 'intro');
    assertOk(await setIntro(null, views.collectionId));
  });
});
