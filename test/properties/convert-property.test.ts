import assert from 'node:assert/strict';
import { it } from 'node:test';
import { assertError, assertOk } from '../helpers/answers.ts';
import { apiFor, describeOverTransports } from '../helpers/api.ts';
import { guideOf, newGuide } from '../helpers/fixtures.ts';

const kinds = ['shortLabel', 'longSection', 'number', 'date', 'checkbox', 'singleSelect'] as const;
const allowed = new Set([
  'singleSelect->checkbox',
  'checkbox->singleSelect',
  'shortLabel->longSection',
  'longSection->shortLabel',
]);
const options = [{ label: 'Lake' }, { label: 'Peak' }, { label: 'Gorge' }];

await describeOverTransports('properties: convert_property along the conversion table', (suite, t) => {
  const { apis } = suite;
  const call = (name: string, args: Record<string, unknown> = {}) => apis[t].call(name, args);
  const property = async (productId: string, kind: string, key: string) => {
    const a = await call('create_property', {
      productId,
      label: key,
      key,
      kind,
      ...(kind === 'checkbox' || kind === 'singleSelect' ? { options } : {}),
    });
    assertOk(a, 201);
    return a.body.propertyDefId as string;
  };
  /** Spots by key with their custom values, written in one batch. */
  const spots = async (productId: string, values: Record<string, Record<string, unknown> | undefined>) => {
    const items = Object.entries(values).map(([spotKey, customValues]) => ({
      spotKey,
      name: spotKey,
      ...(customValues ? { customValues } : {}),
    }));
    assertOk(await call('upsert_spots', { productId, spots: items }));
  };
  const valuesOf = async (productId: string) => {
    const a = await call('list_spots', { productId, includeArchived: true });
    return Object.fromEntries(
      a.body.spots.map((s: { spotKey: string; customValues: unknown }) => [s.spotKey, s.customValues]),
    );
  };
  const kindOf = async (productId: string, propertyDefId: string) => {
    const l = await call('list_properties', { productId });
    return l.body.properties.find((p: { propertyDefId: string }) => p.propertyDefId === propertyDefId);
  };
  /** The spot keys a refused conversion names. */
  const inTheWay = (a: { body: { error: { message: string } } }) =>
    /Spots in the way: (.*)\.$/.exec(a.body.error.message)?.[1]?.split(', ');
  const convert = (propertyDefId: string, toKind: string) => call('convert_property', { propertyDefId, toKind });

  it('singleSelect → checkbox: each value becomes a one-item list', async () => {
    const productId = await newGuide(apis[t], `${t} Single to many`);
    const id = await property(productId, 'singleSelect', 'type');
    await spots(productId, { a: { type: 'lake' }, b: { type: 'peak' }, c: undefined });
    const v = (await guideOf(apis[t], productId)).propertySchemaVersion;
    const a = await convert(id, 'checkbox');
    assertOk(a);
    assert.deepEqual(a.body, {
      ok: true,
      propertyDefId: id,
      kind: 'checkbox',
      schemaVersion: v + 1,
      spotsChanged: 2,
    });
    assert.deepEqual(await valuesOf(productId), { a: { type: ['lake'] }, b: { type: ['peak'] }, c: {} });
    const p = await kindOf(productId, id);
    assert.equal(p.kind, 'checkbox');
    assert.equal(p.schemaVersion, v + 1);
    assert.equal(p.options.length, 3, 'the options stay');
    assert.equal((await guideOf(apis[t], productId)).propertySchemaVersion, v + 1);
    // Now it takes lists.
    assertOk(
      await call('upsert_spots', {
        productId,
        spots: [{ spotKey: 'c', customValues: { type: ['lake', 'gorge'] } }],
      }),
    );
  });

  it('checkbox → singleSelect: refused naming the spots holding several, allowed once fixed', async () => {
    const productId = await newGuide(apis[t], `${t} Many to single`);
    const id = await property(productId, 'checkbox', 'tags');
    await spots(productId, {
      one: { tags: ['lake'] },
      'two-a': { tags: ['lake', 'peak'] },
      none: undefined,
      'two-b': { tags: ['gorge', 'peak', 'lake'] },
    });
    const before = await valuesOf(productId);
    const v = (await guideOf(apis[t], productId)).propertySchemaVersion;
    const refused = await convert(id, 'singleSelect');
    assertError(refused, 'invalid_request', 'toKind');
    assert.deepEqual(inTheWay(refused)?.sort(), ['two-a', 'two-b'], 'only the spots in the way are named');
    assert.deepEqual(await valuesOf(productId), before, 'a refusal changes no value');
    assert.equal((await kindOf(productId, id)).kind, 'checkbox');
    assert.equal((await guideOf(apis[t], productId)).propertySchemaVersion, v, 'nor the version');
    await spots(productId, { 'two-a': { tags: ['peak'] } });
    assertError(await convert(id, 'singleSelect'), 'invalid_request', 'toKind');
    await spots(productId, { 'two-b': { tags: null } });
    const a = await convert(id, 'singleSelect');
    assertOk(a);
    assert.equal(a.body.spotsChanged, 2);
    assert.equal(a.body.schemaVersion, v + 1);
    assert.deepEqual(await valuesOf(productId), {
      one: { tags: 'lake' },
      'two-a': { tags: 'peak' },
      none: {},
      'two-b': {},
    });
    assert.equal((await kindOf(productId, id)).kind, 'singleSelect');
  });

  it('names at most 20 spots in the way, then how many more', async () => {
    const productId = await newGuide(apis[t], `${t} Many in the way`);
    const id = await property(productId, 'checkbox', 'tags');
    const many = Object.fromEntries(Array.from({ length: 23 }, (_, i) => [`s${i}`, { tags: ['lake', 'peak'] }]));
    await spots(productId, many);
    const refused = await convert(id, 'singleSelect');
    assertError(refused, 'invalid_request', 'toKind');
    assert.match(refused.body.error.message, /and 3 more/);
  });

  it('shortLabel ↔ longSection keeps values; back to shortLabel only when every value fits one line', async () => {
    const productId = await newGuide(apis[t], `${t} Text kinds`);
    const id = await property(productId, 'shortLabel', 'note');
    await spots(productId, { a: { note: 'One line' }, b: { note: 'Another' }, c: undefined });
    const toLong = await convert(id, 'longSection');
    assertOk(toLong);
    assert.equal(toLong.body.spotsChanged, 0);
    assert.equal(toLong.body.kind, 'longSection');
    assert.deepEqual(await valuesOf(productId), { a: { note: 'One line' }, b: { note: 'Another' }, c: {} });
    await spots(productId, { b: { note: 'Two\nlines' }, c: { note: 'l'.repeat(201) } });
    const refused = await convert(id, 'shortLabel');
    assertError(refused, 'invalid_request', 'toKind');
    assert.deepEqual(inTheWay(refused)?.sort(), ['b', 'c']);
    assert.equal((await kindOf(productId, id)).kind, 'longSection');
    await spots(productId, { b: { note: 'Two lines' }, c: { note: 'short' } });
    const back = await convert(id, 'shortLabel');
    assertOk(back);
    assert.equal(back.body.spotsChanged, 0);
    assert.deepEqual(await valuesOf(productId), {
      a: { note: 'One line' },
      b: { note: 'Two lines' },
      c: { note: 'short' },
    });
    assertError(
      await call('update_spot', {
        spotId: (await call('list_spots', { productId })).body.spots[0].spotId,
        customValues: { note: 'x\ny' },
      }),
      'invalid_request',
      'customValues.note',
    );
  });

  it('refuses every pair outside the table and the same kind, changing nothing', async () => {
    const productId = await newGuide(apis[t], `${t} Table`);
    const ids: Record<string, string> = {};
    for (const kind of kinds) ids[kind] = await property(productId, kind, `p_${kind.toLowerCase()}`);
    const v = (await guideOf(apis[t], productId)).propertySchemaVersion;
    let refusals = 0;
    for (const from of kinds) {
      for (const to of kinds) {
        if (allowed.has(`${from}->${to}`)) continue;
        assertError(await convert(ids[from]!, to), 'invalid_request', 'toKind');
        refusals += 1;
      }
    }
    assert.equal(refusals, 32);
    assertError(await convert(ids.number!, 'text'), 'invalid_argument', 'toKind');
    assertError(await call('convert_property', { propertyDefId: ids.number! }), 'invalid_argument', 'toKind');
    const g = await guideOf(apis[t], productId);
    assert.equal(g.propertySchemaVersion, v);
    assert.deepEqual(
      g.properties.map((p: { kind: string }) => p.kind),
      [...kinds],
    );
  });

  it("another creator's property cannot be converted", async () => {
    const productId = await newGuide(apis[t], `${t} Convert private`);
    const id = await property(productId, 'singleSelect', 'type');
    const bob = apiFor(suite.h, t, suite.h.bob.writeKey);
    try {
      assertError(await bob.call('convert_property', { propertyDefId: id, toKind: 'checkbox' }), 'not_found');
    } finally {
      await bob.close();
    }
    assert.equal((await kindOf(productId, id)).kind, 'singleSelect');
  });
});
