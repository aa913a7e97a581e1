import assert from 'node:assert/strict';
import { it } from 'node:test';
import { assertError, assertOk } from '../helpers/answers.ts';
import { apiFor, describeOverTransports } from '../helpers/api.ts';
import { salesPageOf } from '../helpers/fixtures.ts';
import { openPage, photo, putOnSale, saleGuide } from '../helpers/sale-guide.ts';

/** Every photo file the page shows, as paths. */
const imagePaths = (html: string) => [...new Set(Array.from(html.matchAll(/\/media\/[\w-]+\.[a-z]+/g), (m) => m[0]))];

await describeOverTransports('deleting a photo takes it out of the sales page draft', (suite, t) => {
  it('the delete says what it took out; the draft read back saves as it is; readiness stays clear', async () => {
    const { h } = suite;
    const api = suite.apis[t];
    const g = await saleGuide(h, suite.apis.rest, `Deleted photos over ${t}`);
    const kept = await photo(h, g.productId, { credit: 'Kept Shot', colour: '#224466' });
    const gallery = [{ mediaId: g.galleryPhoto, caption: 'Bohinj' }, { mediaId: kept }];
    const { draft: before } = await salesPageOf(api, g.productId);
    assertOk(
      await api.call('save_sales_page_draft', {
        productId: g.productId,
        ...before,
        updatedAt: undefined,
        gallery,
        expectedUpdatedAt: before.updatedAt,
      }),
    );
    await putOnSale(h, g.productId);
    const page = await openPage(g.salesPageUrl);
    const { draft: held } = await salesPageOf(api, g.productId);

    const gone = await api.call('delete_media', { mediaId: g.galleryPhoto });
    assertOk(gone);
    assert.match(String(gone.body.warnings), /sales page draft no longer shows this photo \(it was gallery\[0\]\)/);
    const hero = await api.call('delete_media', { mediaId: g.hero });
    assertOk(hero);
    assert.match(String(hero.body.warnings), /\(it was heroMediaId\)/);

    const { draft, live } = await salesPageOf(api, g.productId);
    assert.equal(draft.heroMediaId, null);
    assert.deepEqual(draft.gallery, [{ mediaId: kept }]);
    assert.ok(draft.updatedAt > held.updatedAt, 'the draft moved on, as a save moves it');
    // An editor still holding the draft from before the deletes must read again, not send it back.
    const { updatedAt: heldAt, ...heldContent } = held;
    assertError(
      await api.call('save_sales_page_draft', { productId: g.productId, ...heldContent, expectedUpdatedAt: heldAt }),
      'stale_editor',
    );
    // The playbook's way: read the whole draft, send it back; nothing in it is refused.
    const { updatedAt, ...content } = draft;
    const saved = await api.call('save_sales_page_draft', {
      productId: g.productId,
      ...content,
      expectedUpdatedAt: updatedAt,
    });
    assertOk(saved);
    assert.equal(saved.body.warnings, undefined);

    // Buyers see the release until the next publish: its photos stay named and served, and the answer says which are gone.
    assert.equal(live.heroMediaId, g.hero);
    assert.deepEqual([...live.deletedMediaIds].sort(), [g.hero, g.galleryPhoto].sort());
    for (const path of imagePaths(page.text)) assert.equal((await fetch(`${h.origin}${path}`)).status, 200, path);

    const readiness = await api.call('get_guide_readiness', { productId: g.productId });
    assertOk(readiness);
    assert.deepEqual(
      readiness.body.findings.filter((f: { code: string }) => f.code === 'sales_page_photo_missing'),
      [],
    );
    const publisher = apiFor(h, t, h.alice.publishKey);
    try {
      assertOk(await publisher.call('publish_changes', { productId: g.productId }));
    } finally {
      await publisher.close();
    }
    const after = (await salesPageOf(api, g.productId)).live;
    assert.equal(after.heroMediaId, null);
    assert.deepEqual(after.gallery, [{ mediaId: kept }]);
    assert.deepEqual(after.deletedMediaIds, []);
  });

  it('a photo the draft does not show is deleted without a word about the draft', async () => {
    const { h } = suite;
    const api = suite.apis[t];
    const g = await saleGuide(h, suite.apis.rest, `Unshown photo over ${t}`);
    const other = await photo(h, g.productId, { credit: 'Elsewhere', colour: '#446622' });
    const { draft: before } = await salesPageOf(api, g.productId);
    const gone = await api.call('delete_media', { mediaId: other });
    assertOk(gone);
    assert.equal(gone.body.warnings, undefined);
    assert.deepEqual((await salesPageOf(api, g.productId)).draft, before, 'the draft is untouched');
  });
});
