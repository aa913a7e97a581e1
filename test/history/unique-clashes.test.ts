import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { assertError, assertOk } from '../helpers/answers.ts';
import { type Api, describeOverTransports } from '../helpers/api.ts';
import { chaptersOf, newChapter, newGuide } from '../helpers/fixtures.ts';
import { putOnSale, saleGuide } from '../helpers/sale-guide.ts';
import { wholeGuide } from '../helpers/whole-guide.ts';

/**
 * The unique values of a guide's records (spot keys, property keys, chapter slugs; a guide's slug
 * never changes) against undo_changes and restore_release: a value a record created or changed
 * since has taken refuses the undo with 409 stale_editor naming the record and the field, and
 * changes nothing; two records that traded values since come back as they were.
 */

async function latestChange(api: Api, productId: string): Promise<any> {
  const a = await api.call('list_changes', { productId, limit: 1 });
  assertOk(a);
  return a.body.changes[0];
}

async function historyLength(api: Api, productId: string): Promise<number> {
  return (await api.call('list_changes', { productId })).body.total;
}

await describeOverTransports('unique values against undo and restore', (suite, t) => {
  let api: Api;
  let productId: string;
  before(async () => {
    api = suite.apis[t];
    productId = await newGuide(api, `Clashes over ${t}`);
  });

  /** Undoing `changeId` now is refused naming `field` and `recordId`, and leaves the guide and its history be. */
  async function assertClash(guide: string, changeId: string, field: string, recordId: string, value: string) {
    const whole = await wholeGuide(suite.h, guide);
    const length = await historyLength(api, guide);
    const refused = await api.call('undo_changes', { productId: guide, changeIds: [changeId] });
    assertError(refused, 'stale_editor', field);
    assert.match(refused.body.error.message, new RegExp(recordId));
    assert.match(refused.body.error.message, new RegExp(`"${value}"`));
    if (t === 'rest') assert.equal(refused.body.error.details?.path, field);
    assert.deepEqual(await wholeGuide(suite.h, guide), whole, 'a refused undo changes nothing');
    assert.equal(await historyLength(api, guide), length, 'and records nothing');
  }

  it('refuses to redo a spot whose key a spot made since holds', async () => {
    const first = await api.call('create_spot', { productId, name: 'Savica waterfall', spotKey: 'savica' });
    assertOk(first, 201);
    const created = await latestChange(api, productId);
    const undo = await api.call('undo_changes', { productId, changeIds: [created.changeId] });
    assertOk(undo);
    assertOk(await api.call('create_spot', { productId, name: 'Savica, again', spotKey: 'savica' }), 201);
    await assertClash(productId, undo.body.changeId, 'spotKey', first.body.spotId, 'savica');
  });

  it('refuses to redo a property whose key a property made since holds, as a later change to the guide', async () => {
    // Making a property moves the guide's property schema version: the later one touched the guide too.
    const first = await api.call('create_property', {
      productId,
      label: 'Parking',
      key: 'parking',
      kind: 'shortLabel',
    });
    assertOk(first, 201);
    const created = await latestChange(api, productId);
    const undo = await api.call('undo_changes', { productId, changeIds: [created.changeId] });
    assertOk(undo);
    assertOk(
      await api.call('create_property', { productId, label: 'Car park', key: 'parking', kind: 'shortLabel' }),
      201,
    );
    const whole = await wholeGuide(suite.h, productId);
    assertError(await api.call('undo_changes', { productId, changeIds: [undo.body.changeId] }), 'stale_editor');
    assert.deepEqual(await wholeGuide(suite.h, productId), whole);
  });

  it('refuses to give a chapter back a slug another chapter took since, and undoes once it is free', async () => {
    const lakes = await newChapter(api, productId, { name: 'Lakes', slug: 'lakes' });
    assertOk(await api.call('update_chapter', { collectionId: lakes.collectionId, slug: 'waters' }));
    const renamed = await latestChange(api, productId);
    const other = await newChapter(api, productId, { name: 'More lakes', slug: 'lakes' });
    await assertClash(productId, renamed.changeId, 'slug', lakes.collectionId, 'lakes');
    assertOk(await api.call('update_chapter', { collectionId: other.collectionId, slug: '' }));
    assertOk(await api.call('undo_changes', { productId, changeIds: [renamed.changeId] }));
    const chapter = (await chaptersOf(api, productId)).find((c) => c.collectionId === lakes.collectionId);
    assert.equal(chapter.slug, 'lakes');
  });

  it('restores a release whose chapters traded slugs since, and undoes that restore', async () => {
    const guide = await saleGuide(suite.h, api, `Traded slugs over ${t}`);
    const a = await newChapter(api, guide.productId, { name: 'North', slug: 'north' });
    const b = await newChapter(api, guide.productId, { name: 'South', slug: 'south' });
    await putOnSale(suite.h, guide.productId);
    const atRelease = await wholeGuide(suite.h, guide.productId);
    for (const [chapter, slug] of [
      [a, 'middle'],
      [b, 'north'],
      [a, 'south'],
    ] as const) {
      assertOk(await api.call('update_chapter', { collectionId: chapter.collectionId, slug }));
    }
    const traded = await wholeGuide(suite.h, guide.productId);
    const restored = await api.call('restore_release', { productId: guide.productId, release: 1 });
    assertOk(restored);
    assert.deepEqual(await wholeGuide(suite.h, guide.productId), atRelease);
    const restore = await latestChange(api, guide.productId);
    assertOk(await api.call('undo_changes', { productId: guide.productId, changeIds: [restore.changeId] }));
    assert.deepEqual(await wholeGuide(suite.h, guide.productId), traded);
  });

  it('refuses to undo a restore whose removed spot has its key held by a spot made since', async () => {
    const guide = await saleGuide(suite.h, api, `Restore clash over ${t}`);
    await putOnSale(suite.h, guide.productId);
    const later = await api.call('create_spot', { productId: guide.productId, name: 'Savica', spotKey: 'savica' });
    assertOk(later, 201);
    // Nobody bought it yet, so the restore may remove the spot added since.
    assertOk(await api.call('restore_release', { productId: guide.productId, release: 1 }));
    const restore = await latestChange(api, guide.productId);
    assertOk(await api.call('create_spot', { productId: guide.productId, name: 'Savica', spotKey: 'savica' }), 201);
    await assertClash(guide.productId, restore.changeId, 'spotKey', later.body.spotId, 'savica');
  });
});
