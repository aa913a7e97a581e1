import assert from 'node:assert/strict';
import { it } from 'node:test';
import { assertError, assertOk } from '../helpers/answers.ts';
import { apiFor, describeOverTransports } from '../helpers/api.ts';

await describeOverTransports('guides: create, get, list, update', (suite, t) => {
  const { apis } = suite;
  const create = (args: Record<string, unknown>) => apis[t].call('create_guide', args);

  it('create_guide answers 201 with every default of a new guide', async () => {
    suite.h.clock.set('2026-11-23T10:00:00Z');
    const a = await create({ name: `${t} Defaults` });
    assertOk(a, 201);
    const g = a.body;
    assert.match(g.productId, /^\S+$/);
    assert.equal(g.name, `${t} Defaults`);
    assert.equal(g.slug, `${t}-defaults`);
    assert.equal(g.status, 'draft');
    assert.equal(g.visibleOnStore, false);
    assert.equal(g.storeReviewStatus, null);
    assert.equal(g.storeReviewNote, null);
    assert.deepEqual(g.storeTags, []);
    assert.equal(g.country, null);
    assert.equal(g.reviewsShown, true);
    assert.equal(g.buyerCountShown, false);
    assert.deepEqual(g.pricing, { oneTimeEnabled: true, subscriptionIncluded: false, currency: 'usd' });
    assert.equal(g.originalLanguage, 'en');
    assert.equal(g.createdAt, Date.parse('2026-11-23T10:00:00Z'));
    assert.equal(g.updatedAt, g.createdAt);
    assert.equal(g.publishedAt, null);
    assert.equal(g.lastApiWriteAt, null);
    assert.equal(g.region, null);
    assert.deepEqual(g.areas, []);
    assert.equal(g.mapStyle, null);
    assert.equal(g.propertySchemaVersion, 1);
    assert.deepEqual(g.properties, []);
    assert.equal(g.price, null);
    assert.equal(g.spotCount, 0);
    assert.equal(g.thumbnailUrl, null);
    assert.equal(g.headline, null);
    assert.equal(g.purchaseButtonText, null);
    assert.equal(typeof g.dashboardUrl, 'string');
    assert.ok(g.dashboardUrl.includes(g.productId), g.dashboardUrl);
    assert.ok(g.salesPageUrl.endsWith(`/${g.slug}`), g.salesPageUrl);
    assert.equal('chapterCount' in g, false, 'chapterCount is for get_guide only');
  });

  it('derives the slug from the name with accents folded; clashes get -2, -3', async () => {
    const name = `${t} Ärger über Zürich`;
    const slugs: string[] = [];
    for (let i = 0; i < 3; i++) {
      const a = await create({ name });
      assertOk(a, 201);
      slugs.push(a.body.slug);
    }
    assert.deepEqual(slugs, [`${t}-arger-uber-zurich`, `${t}-arger-uber-zurich-2`, `${t}-arger-uber-zurich-3`]);
  });

  it('refuses an explicit slug that clashes, stores an uppercase slug lower case', async () => {
    const first = await create({ name: 'Any', slug: `${t}-My-Trip` });
    assertOk(first, 201);
    assert.equal(first.body.slug, `${t}-my-trip`);
    assertError(await create({ name: 'Other', slug: `${t}-my-trip` }), 'invalid_request');
    assertError(await create({ name: 'Other', slug: `${t}-MY-TRIP` }), 'invalid_request');
    // Slugs are unique per creator: Bob may use the same one.
    const bob = apiFor(suite.h, t, suite.h.bob.writeKey);
    try {
      const b = await bob.call('create_guide', { name: 'Bob', slug: `${t}-my-trip` });
      assertOk(b, 201);
      assert.equal(b.body.slug, `${t}-my-trip`);
    } finally {
      await bob.close();
    }
  });

  it('refuses slugs with characters outside lowercase letters, digits and hyphens', async () => {
    for (const slug of ['has space', 'under_score', 'ümlaut', '-leading', 'a/b']) {
      const a = await create({ name: 'Bad slug', slug });
      assert.equal(a.ok, false, `slug ${slug} accepted`);
      assert.ok(['invalid_request', 'invalid_argument'].includes(a.body.error.code), JSON.stringify(a.body));
    }
  });

  it('enforces the name: 1-120 characters, required', async () => {
    assertOk(await create({ name: 'n'.repeat(120) }), 201);
    assertError(await create({ name: 'n'.repeat(121) }), 'invalid_request');
    assertError(await create({}), 'invalid_argument');
    assertError(await create({ name: 42 }), 'invalid_argument');
    assertError(await create({ name: 'Fine', extra: 1 }), 'invalid_argument');
  });

  it('get_guide adds chapterCount and photoCount; 404 for unknown and foreign ids', async () => {
    const created = (await create({ name: `${t} Readable` })).body;
    const a = await apis[t].call('get_guide', { productId: created.productId });
    assertOk(a);
    assert.equal(a.body.chapterCount, 0);
    assert.equal(a.body.photoCount, 0);
    const { chapterCount: _c, photoCount: _p, ...rest } = a.body;
    assert.deepEqual(rest, created);
    assertError(await apis[t].call('get_guide', { productId: 'gd_doesnotexist' }), 'not_found');
    const bob = apiFor(suite.h, 'rest', suite.h.bob.writeKey);
    const bobs = (await bob.call('create_guide', { name: 'Bob private' })).body;
    assertError(await apis[t].call('get_guide', { productId: bobs.productId }), 'not_found');
  });

  it('list_guides: own guides only, status filter, newest-changed first', async () => {
    const carol = await suite.h.newCreator(`Carol ${t}`);
    const api = apiFor(suite.h, t, carol.writeKey);
    try {
      suite.h.clock.set('2026-11-24T09:00:00Z');
      const g1 = (await api.call('create_guide', { name: 'First' })).body;
      suite.h.clock.advance(1000);
      const g2 = (await api.call('create_guide', { name: 'Second' })).body;
      suite.h.clock.advance(1000);
      const g3 = (await api.call('create_guide', { name: 'Third' })).body;
      suite.h.clock.advance(1000);
      assertOk(await api.call('update_guide', { productId: g1.productId, headline: 'Touched last' }));
      const all = await api.call('list_guides');
      assertOk(all);
      assert.equal(all.body.count, 3);
      assert.deepEqual(
        all.body.guides.map((g: { productId: string }) => g.productId),
        [g1.productId, g3.productId, g2.productId],
      );
      assert.equal(all.body.guides[0].headline, 'Touched last');
      // A studio move archives one guide; the filter sees it.
      await suite.h.store.db.updateTable('guides').set({ status: 'archived' }).where('id', '=', g2.productId).execute();
      const archived = await api.call('list_guides', { status: 'archived' });
      assert.deepEqual(
        archived.body.guides.map((g: { productId: string }) => g.productId),
        [g2.productId],
      );
      const drafts = await api.call('list_guides', { status: 'draft' });
      assert.equal(drafts.body.count, 2);
      assert.ok(drafts.body.guides.every((g: { status: string }) => g.status === 'draft'));
      assert.equal((await api.call('list_guides', { status: 'published' })).body.count, 0);
      assertError(await api.call('list_guides', { status: 'gone' }), 'invalid_argument');
      const alices = await apis[t].call('list_guides');
      const ids = new Set(alices.body.guides.map((g: { productId: string }) => g.productId));
      assert.ok(!ids.has(g1.productId) && !ids.has(g2.productId) && !ids.has(g3.productId));
    } finally {
      await api.close();
    }
  });

  it('list_guides gives each guide its own areas, properties, spot count and price', async () => {
    const dana = await suite.h.newCreator(`Dana ${t}`);
    const api = apiFor(suite.h, t, dana.writeKey);
    try {
      const lakes = (await api.call('create_guide', { name: 'Lakes' })).body.productId as string;
      const peaks = (await api.call('create_guide', { name: 'Peaks' })).body.productId as string;
      const empty = (await api.call('create_guide', { name: 'Empty' })).body.productId as string;
      assertOk(await api.call('set_area', { productId: lakes, name: 'North shore' }));
      assertOk(await api.call('set_area', { productId: peaks, name: 'East ridge' }));
      assertOk(await api.call('set_area', { productId: peaks, name: 'West ridge' }));
      assertOk(
        await api.call('create_property', { productId: lakes, label: 'Swimming', key: 'swim', kind: 'checkbox' }),
        201,
      );
      assertOk(await api.call('create_spot', { productId: peaks, name: 'Summit' }), 201);
      assertOk(await api.call('set_guide_price', { productId: lakes, amountMinor: 1900, currency: 'eur' }));
      const listed = (await api.call('list_guides')).body.guides as Array<Record<string, unknown>>;
      for (const productId of [lakes, peaks, empty]) {
        const { chapterCount: _c, photoCount: _p, ...record } = (await api.call('get_guide', { productId })).body;
        assert.deepEqual(
          listed.find((g) => g.productId === productId),
          record,
        );
      }
      const named = (name: string) => listed.find((g) => g.name === name) as any;
      assert.deepEqual(
        named('Peaks').areas.map((a: { name: string }) => a.name),
        ['East ridge', 'West ridge'],
      );
      assert.equal(named('Peaks').spotCount, 1);
      assert.equal(named('Lakes').properties.length, 1);
      assert.equal(named('Lakes').price.amountMinor, 1900);
      assert.deepEqual(named('Empty').areas, []);
    } finally {
      await api.close();
    }
  });

  it('update_guide changes only the fields sent and stamps the injected clock', async () => {
    suite.h.clock.set('2026-11-25T07:00:00Z');
    const g = (await create({ name: `${t} Patchable` })).body;
    const id = g.productId;
    suite.h.clock.set('2026-12-01T08:30:00.123Z');
    const first = await apis[t].call('update_guide', {
      productId: id,
      headline: 'Best lakes',
      storeTags: ['lakes', 'hiking'],
      purchaseButtonText: 'Get the guide',
    });
    assertOk(first);
    assert.equal(first.body.updatedAt, Date.parse('2026-12-01T08:30:00.123Z'));
    assert.equal(first.body.lastApiWriteAt, Date.parse('2026-12-01T08:30:00.123Z'));
    assert.equal(first.body.createdAt, Date.parse('2026-11-25T07:00:00Z'));
    suite.h.clock.advance(60_000);
    const second = await apis[t].call('update_guide', { productId: id, reviewsShown: false });
    assertOk(second);
    assert.equal(second.body.reviewsShown, false);
    assert.equal(second.body.updatedAt, Date.parse('2026-12-01T08:31:00.123Z'));
    const { updatedAt: _u1, lastApiWriteAt: _l1, reviewsShown: _r1, ...before_ } = first.body;
    const { updatedAt: _u2, lastApiWriteAt: _l2, reviewsShown: _r2, ...after_ } = second.body;
    assert.deepEqual(after_, before_);
    assert.equal(after_.headline, 'Best lakes');
    assert.deepEqual(after_.storeTags, ['lakes', 'hiking']);
    const read = await apis[t].call('get_guide', { productId: id });
    assert.equal(read.body.lastApiWriteAt, Date.parse('2026-12-01T08:31:00.123Z'));
    assert.equal(read.body.reviewsShown, false);
    const renamed = await apis[t].call('update_guide', { productId: id, name: 'New name' });
    assert.equal(renamed.body.name, 'New name');
    assert.equal(renamed.body.slug, g.slug, 'the slug stays when the name changes');
  });

  it('update_guide: headline and purchaseButtonText clear on "" and respect their limits', async () => {
    const id = (await create({ name: `${t} Texts` })).body.productId;
    const set = await apis[t].call('update_guide', { productId: id, headline: 'h'.repeat(200) });
    assert.equal(set.body.headline, 'h'.repeat(200));
    assertError(await apis[t].call('update_guide', { productId: id, headline: 'h'.repeat(201) }), 'invalid_request');
    assert.equal((await apis[t].call('get_guide', { productId: id })).body.headline, 'h'.repeat(200));
    assert.equal((await apis[t].call('update_guide', { productId: id, headline: '' })).body.headline, null);
    const label = await apis[t].call('update_guide', { productId: id, purchaseButtonText: 'Buy now' });
    assert.equal(label.body.purchaseButtonText, 'Buy now');
    assertError(
      await apis[t].call('update_guide', { productId: id, purchaseButtonText: 'b'.repeat(61) }),
      'invalid_request',
    );
    const reset = await apis[t].call('update_guide', { productId: id, purchaseButtonText: '' });
    assert.equal(reset.body.purchaseButtonText, null);
  });

  it('update_guide: country is stored upper case, "" means worldwide, unknown codes refused', async () => {
    const id = (await create({ name: `${t} Country` })).body.productId;
    assert.equal((await apis[t].call('update_guide', { productId: id, country: 'ch' })).body.country, 'CH');
    // ISO 3166-1 is a fixed list: a code outside it is a shape error naming the field.
    const xx = await apis[t].call('update_guide', { productId: id, country: 'XX' });
    assertError(xx, 'invalid_argument');
    assert.match(xx.body.error.message, /country/);
    assert.ok(!(await apis[t].call('update_guide', { productId: id, country: 'CHE' })).ok);
    assert.equal((await apis[t].call('get_guide', { productId: id })).body.country, 'CH');
    assert.equal((await apis[t].call('update_guide', { productId: id, country: '' })).body.country, null);
  });

  it('update_guide: storeTags are a full replacement from the vocabulary', async () => {
    const id = (await create({ name: `${t} Tags` })).body.productId;
    const a = await apis[t].call('update_guide', { productId: id, storeTags: ['alpine', 'via-ferrata'] });
    assert.deepEqual(a.body.storeTags, ['alpine', 'via-ferrata']);
    const b = await apis[t].call('update_guide', { productId: id, storeTags: ['food'] });
    assert.deepEqual(b.body.storeTags, ['food']);
    assertError(await apis[t].call('update_guide', { productId: id, storeTags: ['skiing'] }), 'invalid_argument');
    assert.deepEqual((await apis[t].call('get_guide', { productId: id })).body.storeTags, ['food']);
    assert.deepEqual((await apis[t].call('update_guide', { productId: id, storeTags: [] })).body.storeTags, []);
  });

  it('update_guide: reviewsShown toggles; thumbnails clear and unknown media is not_found', async () => {
    const id = (await create({ name: `${t} Thumb` })).body.productId;
    assert.equal((await apis[t].call('update_guide', { productId: id, reviewsShown: false })).body.reviewsShown, false);
    assert.equal((await apis[t].call('update_guide', { productId: id, reviewsShown: true })).body.reviewsShown, true);
    assertError(await apis[t].call('update_guide', { productId: id, reviewsShown: 'yes' }), 'invalid_argument');
    await suite.h.store.db
      .updateTable('guides')
      .set({ thumbnail_media_id: 'md_x', thumbnail_url: 'https://cdn.example/t.jpg' })
      .where('id', '=', id)
      .execute();
    assert.equal((await apis[t].call('get_guide', { productId: id })).body.thumbnailUrl, 'https://cdn.example/t.jpg');
    const cleared = await apis[t].call('update_guide', { productId: id, clearThumbnail: true });
    assertOk(cleared);
    assert.equal(cleared.body.thumbnailUrl, null);
    assertError(await apis[t].call('update_guide', { productId: id, thumbnailMediaId: 'md_unknown' }), 'not_found');
    assertError(await apis[t].call('update_guide', { productId: 'gd_unknown', headline: 'x' }), 'not_found');
  });

  it('a read-only key cannot write', async () => {
    const ro = apiFor(suite.h, t, suite.h.alice.readKey);
    try {
      assertError(await ro.call('create_guide', { name: 'Nope' }), 'api_scope_required');
      assertOk(await ro.call('list_guides'));
    } finally {
      await ro.close();
    }
  });
});
