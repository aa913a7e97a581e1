import assert from 'node:assert/strict';
import { it } from 'node:test';
import { assertError, assertOk } from '../helpers/answers.ts';
import { describeOverTransports } from '../helpers/api.ts';
import { guideOf, newGuide, propertyCalls } from '../helpers/fixtures.ts';

await describeOverTransports('properties: option lists, archive, reorder, schema versions', (suite, t) => {
  const { apis } = suite;
  const { call, create, version, listed } = propertyCalls(() => apis[t]);

  it('update_property options: keep by id, add without, left-out archived; spots keep theirs', async () => {
    const productId = await newGuide(apis[t], `${t} Option list`);
    const p = await create(productId, {
      label: 'Season',
      kind: 'checkbox',
      options: [{ label: 'Summer' }, { label: 'Winter' }, { label: 'Spring' }],
    });
    const spot = await call('create_spot', {
      productId,
      name: 'S',
      customValues: { season: ['winter', 'summer'] },
    });
    assertOk(spot, 201);
    const u = await call('update_property', {
      propertyDefId: p.propertyDefId,
      options: [{ label: 'Autumn' }, { id: 'summer', label: 'Summer months' }, { id: 'spring', label: 'Spring' }],
    });
    assertOk(u);
    assert.deepEqual(u.body.options, [
      { id: 'autumn', label: 'Autumn', order: 1, archived: false },
      { id: 'summer', label: 'Summer months', order: 2, archived: false },
      { id: 'spring', label: 'Spring', order: 3, archived: false },
      { id: 'winter', label: 'Winter', order: 4, archived: true },
    ]);
    const kept = await call('get_spot', { spotId: spot.body.spotId });
    assert.deepEqual(kept.body.customValues, { season: ['winter', 'summer'] }, 'stored values keep archived ids');
    assertError(
      await call('update_spot', { spotId: spot.body.spotId, customValues: { season: ['winter'] } }),
      'invalid_request',
      'customValues.season[0]',
    );
    assertOk(await call('update_spot', { spotId: spot.body.spotId, customValues: { season: ['autumn'] } }));
    assertError(
      await call('update_property', { propertyDefId: p.propertyDefId, options: [{ id: 'nope', label: 'Nope' }] }),
      'invalid_request',
      'options[0].id',
    );
    assertError(
      await call('update_property', {
        propertyDefId: p.propertyDefId,
        options: [
          { id: 'summer', label: 'A' },
          { id: 'summer', label: 'B' },
        ],
      }),
      'invalid_request',
      'options[1].id',
    );
    // Listing an archived option by id brings it back; a new label that clashes gets -2.
    const back = await call('update_property', {
      propertyDefId: p.propertyDefId,
      options: [{ id: 'winter', label: 'Winter' }, { label: 'Summer' }],
    });
    assertOk(back);
    const ids = back.body.options.map((o: { id: string; archived: boolean }) => [o.id, o.archived]);
    assert.deepEqual(ids, [
      ['winter', false],
      ['summer-2', false],
      ['autumn', true],
      ['summer', true],
      ['spring', true],
    ]);
  });

  it('archive_property: spots keep values, writes to it refused, archived false brings it back', async () => {
    const productId = await newGuide(apis[t], `${t} Archive`);
    const p = await create(productId, { label: 'Colour', kind: 'shortLabel' });
    const spot = await call('create_spot', {
      productId,
      name: 'S',
      customValues: { colour: 'green' },
      customNotes: { colour: 'n' },
    });
    assertOk(spot, 201);
    const a = await call('archive_property', { propertyDefId: p.propertyDefId });
    assertOk(a);
    assert.equal(a.body.archived, true);
    assert.equal((await listed(productId)).properties[0].archived, true, 'archived properties are listed');
    const got = await call('get_spot', { spotId: spot.body.spotId });
    assert.deepEqual([got.body.customValues, got.body.customNotes], [{ colour: 'green' }, { colour: 'n' }]);
    for (const fields of [{ customValues: { colour: 'blue' } }, { customNotes: { colour: 'x' } }]) {
      const r = await call('update_spot', { spotId: spot.body.spotId, ...fields });
      assertError(r, 'invalid_request', `${Object.keys(fields)[0]}.colour`);
    }
    assertError(
      await call('create_spot', { productId, name: 'T', customValues: { colour: 'red' } }),
      'invalid_request',
      'customValues.colour',
    );
    assertOk(await call('update_spot', { spotId: spot.body.spotId, description: 'other fields still write' }));
    const back = await call('archive_property', { propertyDefId: p.propertyDefId, archived: false });
    assertOk(back);
    assert.equal(back.body.archived, false);
    const u = await call('update_spot', { spotId: spot.body.spotId, customValues: { colour: 'blue' } });
    assertOk(u);
    assert.deepEqual(u.body.customValues, { colour: 'blue' });
  });

  it('reorder_properties: applies the order; refuses missing, unknown and repeated ids', async () => {
    const productId = await newGuide(apis[t], `${t} Reorder`);
    const ps: any[] = [];
    for (const label of ['A', 'B', 'C', 'D']) ps.push(await create(productId, { label, kind: 'date' }));
    assertOk(await call('archive_property', { propertyDefId: ps[3].propertyDefId }));
    const v = await version(productId);
    const ids = (i: number[]) => i.map((n) => ps[n].propertyDefId);
    assertError(
      await call('reorder_properties', { productId, propertyDefIds: ids([2, 0]) }),
      'invalid_request',
      'propertyDefIds',
    );
    assertError(
      await call('reorder_properties', { productId, propertyDefIds: [...ids([2, 0, 1]), 'prop_unknown'] }),
      'invalid_request',
      'propertyDefIds[3]',
    );
    assertError(
      await call('reorder_properties', { productId, propertyDefIds: ids([2, 0, 2, 1]) }),
      'invalid_request',
      'propertyDefIds[2]',
    );
    assert.equal(await version(productId), v, 'refusals change nothing');
    const r = await call('reorder_properties', { productId, propertyDefIds: ids([2, 0, 1]) });
    assertOk(r);
    assert.equal(r.body.schemaVersion, v + 1);
    const order = (list: Array<{ key: string }>) => list.map((p) => p.key);
    assert.deepEqual(order(r.body.properties), ['c', 'a', 'b', 'd'], 'archived ones left out follow at the end');
    assert.deepEqual(order((await listed(productId)).properties), ['c', 'a', 'b', 'd']);
    const r2 = await call('reorder_properties', { productId, propertyDefIds: ids([3, 1, 0, 2]), answer: 'full' });
    assertOk(r2);
    assert.deepEqual(order(r2.body.properties), ['d', 'b', 'a', 'c']);
    for (const p of r2.body.properties) assert.equal(p.schemaVersion, v + 2);
    assert.deepEqual(r2.body.properties, (await listed(productId)).properties, 'answer full is what a read returns');
  });

  it('every property change bumps the schema version by one; each property carries its last', async () => {
    const productId = await newGuide(apis[t], `${t} Versions`);
    suite.h.clock.set('2026-12-20T09:00:00Z');
    const x = await create(productId, { label: 'X', kind: 'singleSelect', options: [{ label: 'One' }] });
    const y = await create(productId, { label: 'Y', kind: 'shortLabel' });
    const steps: Array<[string, Record<string, unknown>]> = [
      ['update_property', { propertyDefId: x.propertyDefId, label: 'X2' }],
      ['archive_property', { propertyDefId: y.propertyDefId }],
      ['archive_property', { propertyDefId: y.propertyDefId, archived: false }],
      ['convert_property', { propertyDefId: x.propertyDefId, toKind: 'checkbox' }],
      ['update_property', { propertyDefId: y.propertyDefId, placeholder: 'p' }],
    ];
    let v = await version(productId);
    assert.equal(v, 3);
    for (const [op, args] of steps) {
      suite.h.clock.advance(1000);
      assertOk(await call(op, args));
      const g = await guideOf(apis[t], productId);
      assert.equal(g.propertySchemaVersion, v + 1, op);
      assert.equal(g.lastApiWriteAt, suite.h.clock.now(), `${op} stamps the guide`);
      v += 1;
      const changed = g.properties.find((p: { propertyDefId: string }) => p.propertyDefId === args.propertyDefId);
      assert.equal(changed.schemaVersion, v, `${op}: the property carries the version of its change`);
    }
    const l = await listed(productId);
    assert.equal(l.schemaVersion, v);
    assert.deepEqual(
      l.properties.map((p: { schemaVersion: number }) => p.schemaVersion),
      [v - 1, v],
    );
  });
});
