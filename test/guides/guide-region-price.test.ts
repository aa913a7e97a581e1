import assert from 'node:assert/strict';
import { it } from 'node:test';
import { assertError, assertOk } from '../helpers/answers.ts';
import { apiFor, describeOverTransports } from '../helpers/api.ts';

await describeOverTransports('guides: set_guide_region and set_guide_price', (suite, t) => {
  const { apis } = suite;
  const newGuide = async (name: string): Promise<string> => {
    const a = await apis[t].call('create_guide', { name: `${t} ${name}` });
    assertOk(a, 201);
    return a.body.productId as string;
  };
  const region = (productId: string, fields: Record<string, unknown>) =>
    apis[t].call('set_guide_region', { productId, ...fields });
  const readRegion = async (productId: string) =>
    (await apis[t].call('get_guide', { productId })).body.region as unknown;

  const full = {
    label: 'Julian Alps',
    centerLat: 46.37,
    centerLon: 13.84,
    defaultZoom: 9,
    bbox: [13.4, 46.1, 14.3, 46.6],
  };

  it('set_guide_region stores the region; get_guide reads it back; the write is stamped', async () => {
    const id = await newGuide('Region');
    suite.h.clock.set('2026-12-02T12:00:00Z');
    const a = await region(id, full);
    assertOk(a);
    assert.equal(a.body.ok, true);
    assert.equal(a.body.productId, id);
    assert.deepEqual(a.body.region, full);
    assert.equal('warnings' in a.body, false, 'no warnings key when there are none');
    const g = (await apis[t].call('get_guide', { productId: id })).body;
    assert.deepEqual(g.region, full);
    assert.equal(g.lastApiWriteAt, Date.parse('2026-12-02T12:00:00Z'));
    assert.equal(g.updatedAt, Date.parse('2026-12-02T12:00:00Z'));
  });

  it('set_guide_region is a full replacement; an empty call clears it to null', async () => {
    const id = await newGuide('Replace');
    assertOk(await region(id, full));
    const second = await region(id, { label: 'Only a label' });
    assertOk(second);
    assert.deepEqual(second.body.region, { label: 'Only a label' });
    assert.deepEqual(await readRegion(id), { label: 'Only a label' });
    const cleared = await region(id, {});
    assertOk(cleared);
    assert.equal(cleared.body.region, null);
    assert.equal(await readRegion(id), null);
  });

  it('set_guide_region refuses out-of-range values and leaves the region as it was', async () => {
    const id = await newGuide('Bounds');
    assertOk(await region(id, full));
    assertError(await region(id, { centerLat: 91, centerLon: 0 }), 'invalid_request');
    assertError(await region(id, { centerLat: 0, centerLon: -181 }), 'invalid_request');
    assertError(await region(id, { defaultZoom: 23 }), 'invalid_request');
    assertError(await region(id, { defaultZoom: -1 }), 'invalid_request');
    assertError(await region(id, { label: 'l'.repeat(121) }), 'invalid_request');
    assertError(await region(id, { bbox: [13.4, 46.6, 14.3, 46.1] }), 'invalid_request');
    assert.equal((await region(id, { bbox: [1, 2, 3] })).ok, false, 'a bbox has four numbers');
    assertError(await region(id, { centerLat: 46.3 }), 'invalid_request');
    assertError(await region(id, { centerLon: 13.8 }), 'invalid_request');
    assertError(await region(id, { zoom: 5 }), 'invalid_argument');
    assert.deepEqual(await readRegion(id), full);
    assertError(await region('gd_unknown', full), 'not_found');
  });

  it('set_guide_region accepts a centre outside the bbox with a warning', async () => {
    const id = await newGuide('Outside');
    const outside = { ...full, centerLat: 40, centerLon: 13.84 };
    const a = await region(id, outside);
    assertOk(a);
    assert.ok(Array.isArray(a.body.warnings), JSON.stringify(a.body));
    assert.ok(a.body.warnings.length >= 1);
    assert.ok(a.body.warnings.every((w: unknown) => typeof w === 'string' && w.length > 0));
    assert.deepEqual(await readRegion(id), outside);
  });

  it('set_guide_price answers ok with a new price row; the currency is stored lower case', async () => {
    const id = await newGuide('Priced');
    const a = await apis[t].call('set_guide_price', { productId: id, amountMinor: 2900, currency: 'EUR' });
    assertOk(a);
    assert.equal(a.body.ok, true);
    assert.equal(a.body.productId, id);
    assert.equal(typeof a.body.productPriceId, 'string');
    assert.ok(a.body.productPriceId.length > 0);
    assert.equal(a.body.amountMinor, 2900);
    assert.equal(a.body.currency, 'eur');
    assert.deepEqual((await apis[t].call('get_guide', { productId: id })).body.price, {
      amountMinor: 2900,
      currency: 'eur',
    });
    const min = await apis[t].call('set_guide_price', { productId: id, amountMinor: 900, currency: 'chf' });
    assertOk(min);
    assert.equal(min.body.currency, 'chf');
  });

  it('set_guide_price refuses a price under 900, a fraction and an unknown currency', async () => {
    const id = await newGuide('Refused price');
    assertError(
      await apis[t].call('set_guide_price', { productId: id, amountMinor: 899, currency: 'usd' }),
      'invalid_request',
    );
    assertError(
      await apis[t].call('set_guide_price', { productId: id, amountMinor: 1.5, currency: 'usd' }),
      'invalid_argument',
    );
    const xyz = await apis[t].call('set_guide_price', { productId: id, amountMinor: 2900, currency: 'xyz' });
    assert.equal(xyz.ok, false);
    assert.ok(['invalid_request', 'invalid_argument'].includes(xyz.body.error.code), JSON.stringify(xyz.body));
    assertError(await apis[t].call('set_guide_price', { productId: id, amountMinor: 2900 }), 'invalid_argument');
    assertError(
      await apis[t].call('set_guide_price', { productId: id, amountMinor: '2900', currency: 'usd' }),
      'invalid_argument',
    );
    assert.equal((await apis[t].call('get_guide', { productId: id })).body.price, null);
    assertError(
      await apis[t].call('set_guide_price', { productId: 'gd_unknown', amountMinor: 2900, currency: 'usd' }),
      'not_found',
    );
  });

  it('set_guide_price: each call is a new price row and get_guide shows the latest', async () => {
    const id = await newGuide('Repriced');
    const ids = new Set<string>();
    // The clock stands still: two changes in the same millisecond must still order.
    const amounts = [1900, 2900, 1500, 990, 4500];
    for (const amountMinor of amounts) {
      const a = await apis[t].call('set_guide_price', { productId: id, amountMinor, currency: 'usd' });
      assertOk(a);
      ids.add(a.body.productPriceId);
      assert.deepEqual((await apis[t].call('get_guide', { productId: id })).body.price, {
        amountMinor,
        currency: 'usd',
      });
    }
    assert.equal(ids.size, amounts.length, 'every change mints a new productPriceId');
    const rows = await suite.h.store.db.selectFrom('guide_prices').select('id').where('guide_id', '=', id).execute();
    assert.equal(rows.length, amounts.length, 'price rows are immutable: one per change');
  });

  it('set_guide_price: a creator without the current agreement gets 409 agreement_outdated', async () => {
    const carol = await suite.h.newCreator(`Carol ${t}`, { agreementAccepted: false });
    const api = apiFor(suite.h, t, carol.writeKey);
    try {
      const id = (await api.call('create_guide', { name: 'Unpriced' })).body.productId;
      assertError(
        await api.call('set_guide_price', { productId: id, amountMinor: 2900, currency: 'usd' }),
        'agreement_outdated',
      );
      assert.equal((await api.call('get_guide', { productId: id })).body.price, null);
      const rows = await suite.h.store.db.selectFrom('guide_prices').select('id').where('guide_id', '=', id).execute();
      assert.equal(rows.length, 0);
    } finally {
      await api.close();
    }
  });

  it('set_guide_price needs the write scope', async () => {
    const id = await newGuide('Scoped');
    const ro = apiFor(suite.h, t, suite.h.alice.readKey);
    try {
      assertError(
        await ro.call('set_guide_price', { productId: id, amountMinor: 2900, currency: 'usd' }),
        'api_scope_required',
      );
    } finally {
      await ro.close();
    }
  });
});
