import assert from 'node:assert/strict';
import { it } from 'node:test';
import { assertError, assertOk } from '../helpers/answers.ts';
import { apiFor, describeOverTransports } from '../helpers/api.ts';
import { guideOf, newGuide, propertyCalls } from '../helpers/fixtures.ts';

const kinds = ['shortLabel', 'longSection', 'number', 'date', 'checkbox', 'singleSelect'] as const;

await describeOverTransports('properties: create, update, archive, reorder, list', (suite, t) => {
  const { apis } = suite;
  const { call, create, version, listed } = propertyCalls(() => apis[t]);

  it('create_property: one per kind with its defaults, keys derived from labels', async () => {
    const productId = await newGuide(apis[t], `${t} Kinds`);
    assert.equal(await version(productId), 1);
    const made: any[] = [];
    for (const kind of kinds) made.push(await create(productId, { label: `My ${kind} field`, kind }));
    made.forEach((p, i) => {
      assert.equal(p.kind, kinds[i]);
      assert.equal(p.label, `My ${kinds[i]} field`);
      assert.equal(p.key, `my_${kinds[i]!.toLowerCase()}_field`);
      assert.equal(p.required, false);
      assert.equal(p.filterable, false);
      assert.equal(p.placeholder, null);
      assert.equal(p.numUnit, null);
      assert.deepEqual(p.options, []);
      assert.equal(p.archived, false);
      assert.equal(p.schemaVersion, 2 + i, 'the guide version after this change');
      if (i > 0) assert.ok(p.order > made[i - 1].order, 'new properties go last');
    });
    const g = await guideOf(apis[t], productId);
    assert.equal(g.propertySchemaVersion, 7);
    assert.deepEqual(
      g.properties.map((p: { key: string }) => p.key),
      made.map((p) => p.key),
    );
    const l = await listed(productId);
    assert.equal(l.schemaVersion, 7);
    assert.deepEqual(l.properties, made);
  });

  it('derives keys: symbols dropped, accents folded, clashes _2 _3, digits prefixed, at most 40', async () => {
    const productId = await newGuide(apis[t], `${t} Keys`);
    const keys = [];
    for (let i = 0; i < 3; i++) keys.push((await create(productId, { label: 'Entry fee (€)', kind: 'number' })).key);
    assert.deepEqual(keys, ['entry_fee', 'entry_fee_2', 'entry_fee_3']);
    assert.equal((await create(productId, { label: 'Öffnungszeit', kind: 'shortLabel' })).key, 'offnungszeit');
    assert.equal((await create(productId, { label: '2nd floor', kind: 'shortLabel' })).key, 'p_2nd_floor');
    const long = [];
    for (let i = 0; i < 3; i++) long.push((await create(productId, { label: 'y'.repeat(80), kind: 'date' })).key);
    assert.deepEqual(long, ['y'.repeat(40), `${'y'.repeat(38)}_2`, `${'y'.repeat(38)}_3`]);
  });

  it('takes an explicit key; refuses a taken one (archived included) and a malformed one', async () => {
    const productId = await newGuide(apis[t], `${t} Explicit`);
    const p = await create(productId, { label: 'Anything', kind: 'number', key: 'height_m' });
    assert.equal(p.key, 'height_m');
    assertError(
      await call('create_property', { productId, label: 'X', kind: 'date', key: 'height_m' }),
      'invalid_request',
      'key',
    );
    assertOk(await call('archive_property', { propertyDefId: p.propertyDefId }));
    assertError(
      await call('create_property', { productId, label: 'X', kind: 'date', key: 'height_m' }),
      'invalid_request',
      'key',
    );
    // A derived key steps around it too.
    assert.equal((await create(productId, { label: 'Height m', kind: 'number' })).key, 'height_m_2');
    for (const key of ['Height', '2nd', 'with-hyphen', 'has space', '', 'k'.repeat(41)]) {
      const a = await call('create_property', { productId, label: 'Bad key', kind: 'number', key });
      assert.equal(a.ok, false, `key ${JSON.stringify(key)} accepted`);
      assert.match(a.body.error.message, /^key:/);
    }
    assert.equal((await listed(productId)).properties.length, 2);
  });

  it('refuses settings that do not fit the kind', async () => {
    const productId = await newGuide(apis[t], `${t} Settings`);
    for (const kind of ['shortLabel', 'longSection']) {
      assertError(
        await call('create_property', { productId, label: 'F', kind, filterable: true }),
        'invalid_request',
        'filterable',
      );
    }
    for (const kind of ['number', 'date', 'checkbox', 'singleSelect']) {
      assert.equal((await create(productId, { label: `F ${kind}`, kind, filterable: true })).filterable, true);
    }
    for (const kind of ['shortLabel', 'longSection', 'date', 'checkbox', 'singleSelect']) {
      assertError(
        await call('create_property', { productId, label: 'U', kind, numUnit: 'm' }),
        'invalid_request',
        'numUnit',
      );
    }
    const n = await create(productId, {
      label: 'Height',
      kind: 'number',
      numUnit: 'm',
      required: true,
      placeholder: 'e.g. 12',
    });
    assert.deepEqual([n.numUnit, n.required, n.placeholder], ['m', true, 'e.g. 12']);
    for (const kind of ['shortLabel', 'longSection', 'number', 'date']) {
      assertError(
        await call('create_property', { productId, label: 'O', kind, options: [{ label: 'A' }] }),
        'invalid_request',
        'options',
      );
    }
    assertError(await call('create_property', { productId, label: 'K', kind: 'text' }), 'invalid_argument', 'kind');
    assertError(await call('create_property', { productId, label: '', kind: 'date' }), 'invalid_request', 'label');
    assertError(
      await call('create_property', { productId, label: 'l'.repeat(81), kind: 'date' }),
      'invalid_request',
      'label',
    );
    assertError(await call('create_property', { productId, kind: 'date' }), 'invalid_argument', 'label');
    assertError(
      await call('create_property', { productId, label: 'Nul \u0000', kind: 'date' }),
      'invalid_request',
      'label',
    );
    assert.equal((await listed(productId)).properties.length, 5);
  });

  it('derives option ids from labels: folded, -2 on a clash, at most 40, kept by id', async () => {
    const productId = await newGuide(apis[t], `${t} Options`);
    const long = 'Z'.repeat(80);
    const p = await create(productId, {
      label: 'Access',
      kind: 'checkbox',
      options: [{ label: 'Bäch Zugang' }, { label: 'Boat' }, { label: 'boat' }, { label: long }, { label: long }],
    });
    assert.deepEqual(
      p.options.map((o: { id: string }) => o.id),
      ['bach-zugang', 'boat', 'boat-2', 'z'.repeat(40), `${'z'.repeat(38)}-2`],
    );
    assert.deepEqual(
      p.options.map((o: { order: number; archived: boolean }) => [o.order, o.archived]),
      [
        [1, false],
        [2, false],
        [3, false],
        [4, false],
        [5, false],
      ],
    );
    const kept = await call('update_property', {
      propertyDefId: p.propertyDefId,
      options: p.options.map((o: { id: string; label: string }) => ({ id: o.id, label: o.label })),
    });
    assertOk(kept);
    assert.deepEqual(kept.body.options, p.options);
  });

  it('update_property: only the fields sent; key and kind never change here', async () => {
    const productId = await newGuide(apis[t], `${t} Update`);
    const p = await create(productId, { label: 'Height', kind: 'number', numUnit: 'm', placeholder: '12' });
    const u = await call('update_property', {
      propertyDefId: p.propertyDefId,
      label: 'Height above sea',
      required: true,
    });
    assertOk(u);
    assert.equal(u.body.label, 'Height above sea');
    assert.equal(u.body.required, true);
    assert.deepEqual([u.body.key, u.body.kind, u.body.numUnit, u.body.placeholder], ['height', 'number', 'm', '12']);
    const cleared = await call('update_property', {
      propertyDefId: p.propertyDefId,
      numUnit: '',
      placeholder: null,
    });
    assertOk(cleared);
    assert.deepEqual([cleared.body.numUnit, cleared.body.placeholder], [null, null]);
    assertOk(await call('update_property', { propertyDefId: p.propertyDefId, key: 'height', kind: 'number' }));
    const v = await version(productId);
    assertError(
      await call('update_property', { propertyDefId: p.propertyDefId, key: 'altitude' }),
      'invalid_request',
      'key',
    );
    assertError(
      await call('update_property', { propertyDefId: p.propertyDefId, kind: 'date' }),
      'invalid_request',
      'kind',
    );
    const s = await create(productId, { label: 'Note', kind: 'shortLabel' });
    assertError(
      await call('update_property', { propertyDefId: s.propertyDefId, filterable: true }),
      'invalid_request',
      'filterable',
    );
    assertError(
      await call('update_property', { propertyDefId: s.propertyDefId, numUnit: 'm' }),
      'invalid_request',
      'numUnit',
    );
    assertError(
      await call('update_property', { propertyDefId: s.propertyDefId, options: [{ label: 'A' }] }),
      'invalid_request',
      'options',
    );
    assert.equal(await version(productId), v + 1, 'only the create bumped the version');
    const after = (await listed(productId)).properties[0];
    assert.equal(after.key, 'height');
    assert.equal(after.kind, 'number');
  });

  it("another creator's properties are not_found, like missing ones; a read key only reads", async () => {
    const productId = await newGuide(apis[t], `${t} Private props`);
    const p = await create(productId, { label: 'Mine', kind: 'singleSelect', options: [{ label: 'A' }] });
    const bob = apiFor(suite.h, t, suite.h.bob.writeKey);
    const ro = apiFor(suite.h, t, suite.h.alice.readKey);
    try {
      for (const [op, args] of [
        ['update_property', { label: 'Stolen' }],
        ['archive_property', {}],
        ['convert_property', { toKind: 'checkbox' }],
      ] as const) {
        const foreign = await bob.call(op, { propertyDefId: p.propertyDefId, ...args });
        const missing = await bob.call(op, { propertyDefId: 'prop_missing', ...args });
        assertError(foreign, 'not_found');
        assertError(missing, 'not_found');
        assert.equal(
          foreign.body.error.message.replace(p.propertyDefId, 'ID'),
          missing.body.error.message.replace('prop_missing', 'ID'),
        );
        assertError(await ro.call(op, { propertyDefId: p.propertyDefId, ...args }), 'api_scope_required');
      }
      assertError(await bob.call('create_property', { productId, label: 'B', kind: 'date' }), 'not_found');
      assertError(await bob.call('list_properties', { productId }), 'not_found');
      assertError(await bob.call('reorder_properties', { productId, propertyDefIds: [p.propertyDefId] }), 'not_found');
      assertError(await ro.call('create_property', { productId, label: 'R', kind: 'date' }), 'api_scope_required');
      assertOk(await ro.call('list_properties', { productId }));
    } finally {
      await bob.close();
      await ro.close();
    }
    const l = await listed(productId);
    assert.deepEqual(l.properties, [p]);
    assert.equal(l.schemaVersion, 2);
  });
});
