import assert from 'node:assert/strict';
import { it } from 'node:test';
import { assertError, assertOk } from '../helpers/answers.ts';
import { describeOverTransports } from '../helpers/api.ts';
import { chaptersOf, guideOf, newChapter, newGuide } from '../helpers/fixtures.ts';

await describeOverTransports('chapters: create, list, update, reorder, delete', (suite, t) => {
  const { apis } = suite;
  const call = (name: string, args: Record<string, unknown> = {}) => apis[t].call(name, args);

  it('create_chapter: a collection by default, every field stored, listed in order with get_guide counting', async () => {
    const productId = await newGuide(apis[t], `${t} chapters`);
    const at = suite.h.clock.now();
    const a = await call('create_chapter', { productId, name: 'Best viewpoints' });
    assertOk(a, 201);
    const { collectionId, ...rest } = a.body;
    assert.match(collectionId, /^col_/);
    assert.deepEqual(rest, {
      productId,
      name: 'Best viewpoints',
      slug: null,
      description: null,
      kind: 'collection',
      body: [],
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
      createdAt: at,
      updatedAt: at,
    });
    const b = await newChapter(apis[t], productId, {
      name: 'Before you go',
      kind: 'chapter',
      description: 'What to know',
      slug: 'Before-You-Go',
      body: ['First.', '', '  ', '- a bullet\n- another'],
    });
    assert.equal(b.kind, 'chapter');
    assert.equal(b.slug, 'before-you-go', 'stored lower case');
    assert.deepEqual(b.body, ['First.', '- a bullet\n- another'], 'empty paragraphs dropped');
    assert.equal(b.order, 2);
    const listed = await chaptersOf(apis[t], productId);
    assert.deepEqual(listed, [a.body, b]);
    const list = await call('list_chapters', { productId });
    assert.equal(list.body.count, 2);
    assert.equal((await guideOf(apis[t], productId)).chapterCount, 2);
  });

  it('create_chapter refuses bad input and writes nothing', async () => {
    const productId = await newGuide(apis[t], `${t} refusals`);
    await newChapter(apis[t], productId, { name: 'Taken', slug: 'taken' });
    const create = (fields: Record<string, unknown>) => call('create_chapter', { productId, ...fields });
    assertError(await create({}), 'invalid_argument', 'name');
    assertError(await create({ name: '' }), 'invalid_request', 'name');
    assertError(await create({ name: ' ' }), 'invalid_request', 'name');
    assertError(await create({ name: 'x'.repeat(121) }), 'invalid_request', 'name');
    assertError(await create({ name: 'X', kind: 'album' }), 'invalid_argument', 'kind');
    assertError(await create({ name: 'X', slug: 'TAKEN' }), 'invalid_request', 'slug');
    assertError(await create({ name: 'X', slug: '-lead' }), 'invalid_request', 'slug');
    assertError(await create({ name: 'X', slug: 'a b' }), 'invalid_request', 'slug');
    assertError(await create({ name: 'X', slug: 'a'.repeat(64) }), 'invalid_request', 'slug');
    assertError(await create({ name: 'X', body: ['prose'] }), 'invalid_request', 'body');
    assertError(await create({ name: 'X', kind: 'chapter', body: ['x'.repeat(10_001)] }), 'invalid_request', 'body[0]');
    const many = Array.from({ length: 101 }, () => 'p');
    assertError(await create({ name: 'X', kind: 'chapter', body: many }), 'invalid_request', 'body');
    assertError(await create({ name: 'X', description: 'x'.repeat(301) }), 'invalid_request', 'description');
    assertError(await create({ name: 'X', coverStorageId: 'blob_abcdefgh1234' }), 'invalid_request', 'coverStorageId');
    assertError(await create({ name: 'X', wat: 1 }), 'invalid_argument');
    assertError(await create({ productId: 'gd_missing', name: 'X' }), 'not_found');
    assert.equal((await chaptersOf(apis[t], productId)).length, 1);
    // The bounds themselves are accepted.
    const fits = await create({
      name: 'x'.repeat(120),
      kind: 'chapter',
      slug: `9${'a'.repeat(62)}`,
      body: Array.from({ length: 100 }, () => 'y'.repeat(10_000)),
    });
    assertOk(fits, 201);
    assert.equal(fits.body.body.length, 100);
  });

  it('update_chapter: PATCH rules, slug clashes, the answer carries a new updatedAt', async () => {
    const productId = await newGuide(apis[t], `${t} updates`);
    const other = await newChapter(apis[t], productId, { name: 'Other', slug: 'other' });
    const c = await newChapter(apis[t], productId, {
      name: 'Lakes',
      kind: 'chapter',
      description: 'Blue',
      slug: 'lakes',
      body: ['One'],
    });
    const update = (fields: Record<string, unknown>) =>
      call('update_chapter', { collectionId: c.collectionId, ...fields });
    const a = await update({ name: 'Lakes and tarns', expectedUpdatedAt: c.updatedAt });
    assertOk(a);
    assert.equal(a.body.name, 'Lakes and tarns');
    assert.equal(a.body.description, 'Blue', 'fields not sent stay');
    assert.deepEqual(a.body.body, ['One']);
    assert.ok(a.body.updatedAt > c.updatedAt, 'updatedAt moves even within one millisecond');
    const b = await update({ description: '', slug: '', body: ['Two', 'Three'] });
    assert.equal(b.body.description, null);
    assert.equal(b.body.slug, null);
    assert.deepEqual(b.body.body, ['Two', 'Three']);
    assertError(await update({ slug: 'OTHER' }), 'invalid_request', 'slug');
    assertOk(await update({ slug: 'lakes' }));
    assertOk(await update({ slug: 'lakes' }), 200);
    assertError(await update({ name: '' }), 'invalid_request', 'name');
    assertError(await update({ expectedUpdatedAt: c.updatedAt, name: 'Late' }), 'stale_editor');
    assertError(await update({ coverStorageId: 'blob_nobodyhasthis' }), 'invalid_request', 'coverStorageId');
    assertOk(await update({ coverStorageId: null }));
    assertError(await call('update_chapter', { collectionId: 'col_missing', name: 'X' }), 'not_found');
    const now = (await chaptersOf(apis[t], productId)).find((x) => x.collectionId === c.collectionId);
    assert.equal(now.name, 'Lakes and tarns');
    assert.equal(now.slug, 'lakes');
    assert.equal(other.slug, 'other');
  });

  it('kind changes only when nothing is lost', async () => {
    const productId = await newGuide(apis[t], `${t} kinds`);
    const c = await newChapter(apis[t], productId, { name: 'Prose', kind: 'chapter', body: ['Words'] });
    const update = (fields: Record<string, unknown>) =>
      call('update_chapter', { collectionId: c.collectionId, ...fields });
    const r = await update({ kind: 'collection' });
    assertError(r, 'invalid_request', 'kind');
    assert.match(r.body.error.message, /body: \[\]/);
    // Clearing and changing in one call loses nothing the caller did not ask to lose.
    assert.equal((await update({ kind: 'collection', body: [] })).body.kind, 'collection');
    assertError(await update({ body: ['Words again'] }), 'invalid_request', 'body');
    assertOk(await update({ kind: 'chapter' }));
    assertOk(
      await call('set_chapter_intro', {
        collectionId: c.collectionId,
        intro: { sections: [{ title: 'Hello' }] },
      }),
    );
    assertError(await update({ kind: 'collection' }), 'invalid_request', 'kind');
    assertOk(await call('set_chapter_intro', { collectionId: c.collectionId, intro: null }));
    assertOk(
      await call('set_chapter_pages', {
        collectionId: c.collectionId,
        pages: [{ blocks: [{ kind: 'paragraph', text: 'A page' }] }],
      }),
    );
    assertError(await update({ kind: 'collection' }), 'invalid_request', 'kind');
    assertOk(await call('set_chapter_pages', { collectionId: c.collectionId, pages: [] }));
    assertOk(await update({ kind: 'collection' }));
    // A collection holding chapters as cards cannot become a chapter.
    const card = await newChapter(apis[t], productId, { name: 'Card' });
    assertOk(
      await call('set_chapter_members', {
        collectionId: c.collectionId,
        members: [{ memberCollectionId: card.collectionId }],
      }),
    );
    const k = await update({ kind: 'chapter' });
    assertError(k, 'invalid_request', 'kind');
    assert.match(k.body.error.message, /set_chapter_members/);
    assertOk(await call('set_chapter_members', { collectionId: c.collectionId, members: [] }));
    assert.equal((await update({ kind: 'chapter' })).body.kind, 'chapter');
  });

  it('reorder_chapter: previousId, nextId, both, neither; one row touched; refusals', async () => {
    const productId = await newGuide(apis[t], `${t} order`);
    const made: any[] = [];
    for (const name of ['A', 'B', 'C', 'D']) made.push(await newChapter(apis[t], productId, { name }));
    const id = (name: string) => made.find((m) => m.name === name).collectionId;
    const names = async () => (await chaptersOf(apis[t], productId)).map((x) => x.name);
    const move = (name: string, to: Record<string, unknown>) =>
      call('reorder_chapter', { collectionId: id(name), ...to });
    const before = await chaptersOf(apis[t], productId);
    const r = await move('D', { previousId: id('A') });
    assertOk(r);
    assert.deepEqual(Object.keys(r.body).sort(), ['collectionId', 'ok', 'order']);
    assert.deepEqual(await names(), ['A', 'D', 'B', 'C']);
    const after = await chaptersOf(apis[t], productId);
    for (const x of after.filter((x) => x.name !== 'D')) {
      assert.deepEqual(
        x,
        before.find((y) => y.collectionId === x.collectionId),
        'other chapters untouched',
      );
    }
    assertOk(await move('C', { nextId: id('A') }));
    assert.deepEqual(await names(), ['C', 'A', 'D', 'B']);
    assertOk(await move('C', {}));
    assert.deepEqual(await names(), ['A', 'D', 'B', 'C']);
    assertOk(await move('B', { previousId: id('A'), nextId: id('D') }));
    assert.deepEqual(await names(), ['A', 'B', 'D', 'C']);
    assertError(await move('B', { previousId: id('A'), nextId: id('C') }), 'invalid_request', 'nextId');
    assertError(await move('B', { previousId: id('B') }), 'invalid_request', 'previousId');
    assertError(await move('B', { nextId: 'col_unknown' }), 'invalid_request', 'nextId');
    const elsewhere = await newChapter(apis[t], await newGuide(apis[t], 'Elsewhere'));
    assertError(await move('B', { previousId: elsewhere.collectionId }), 'invalid_request', 'previousId');
    assert.deepEqual(await names(), ['A', 'B', 'D', 'C']);
  });

  it('delete_chapter: permanent, its cards and intro items go, spots stay', async () => {
    const productId = await newGuide(apis[t], `${t} deletes`);
    assertOk(await call('create_spot', { productId, spotKey: 'lake', name: 'Lake' }), 201);
    const gone = await newChapter(apis[t], productId, { name: 'Gone' });
    assertOk(await call('set_chapter_members', { collectionId: gone.collectionId, members: [{ spotKey: 'lake' }] }));
    const holder = await newChapter(apis[t], productId, { name: 'Holder' });
    const kept = await newChapter(apis[t], productId, { name: 'Kept' });
    assertOk(
      await call('set_chapter_members', {
        collectionId: holder.collectionId,
        members: [
          { memberCollectionId: gone.collectionId },
          { spotKey: 'lake' },
          { memberCollectionId: kept.collectionId },
        ],
      }),
    );
    const front = await newChapter(apis[t], productId, { name: 'Front', kind: 'chapter' });
    const intro = await call('set_chapter_intro', {
      collectionId: front.collectionId,
      intro: {
        sections: [
          {
            kind: 'collections',
            title: 'Sets',
            items: [{ collectionId: gone.collectionId, title: 'Gone' }, { collectionId: kept.collectionId }],
          },
        ],
      },
    });
    assertOk(intro);
    const del = await call('delete_chapter', { collectionId: gone.collectionId });
    assertOk(del);
    assert.deepEqual(del.body, { ok: true, collectionId: gone.collectionId, deleted: true });
    const listed = await chaptersOf(apis[t], productId);
    assert.deepEqual(
      listed.map((c) => c.name),
      ['Holder', 'Kept', 'Front'],
    );
    const h = listed[0];
    assert.deepEqual(
      h.members.map((m: any) => [m.spotKey, m.memberCollectionId]),
      [
        ['lake', null],
        [null, kept.collectionId],
      ],
    );
    const f = listed[2];
    assert.deepEqual(f.intro.sections[0].items, [{ collectionId: kept.collectionId }]);
    assert.ok(f.updatedAt > intro.body.updatedAt, 'the intro that lost an item moved on');
    assert.equal((await call('list_spots', { productId })).body.count, 1, 'spots stay');
    assertError(await call('delete_chapter', { collectionId: gone.collectionId }), 'not_found');
    assert.equal((await guideOf(apis[t], productId)).chapterCount, 3);
  });
});
