import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { assertError, assertOk } from '../helpers/answers.ts';
import { describeOverTransports } from '../helpers/api.ts';
import { newGuide } from '../helpers/fixtures.ts';

type Code = 'invalid_argument' | 'invalid_request';

await describeOverTransports('properties: spot customValues checked by kind', (suite, t) => {
  const { apis } = suite;
  const call = (name: string, args: Record<string, unknown> = {}) => apis[t].call(name, args);
  let productId: string;
  let spotId: string;
  before(async () => {
    productId = await newGuide(apis[t], `${t} Values`);
    const props = [
      { key: 'label', label: 'Label', kind: 'shortLabel' },
      { key: 'story', label: 'Story', kind: 'longSection' },
      { key: 'height', label: 'Height', kind: 'number' },
      { key: 'opened', label: 'Opened', kind: 'date' },
      {
        key: 'tags',
        label: 'Tags',
        kind: 'checkbox',
        options: [{ label: 'Red' }, { label: 'Blue' }, { label: 'Old' }],
      },
      {
        key: 'type',
        label: 'Type',
        kind: 'singleSelect',
        options: [{ label: 'Lake' }, { label: 'Peak' }, { label: 'Old' }],
      },
    ];
    for (const p of props) {
      const a = await call('create_property', { productId, ...p });
      assertOk(a, 201);
      if (p.options) {
        // Retire the option "old" of each option property.
        const live = p.options.slice(0, 2).map((o) => ({ id: o.label.toLowerCase(), label: o.label }));
        assertOk(await call('update_property', { propertyDefId: a.body.propertyDefId, options: live }));
      }
    }
    const s = await call('create_spot', { productId, name: 'Valued' });
    assertOk(s, 201);
    spotId = s.body.spotId;
  });
  /** Writes one value; on success, checks what is stored; on refusal, that nothing changed. */
  const write = async (key: string, value: unknown) => {
    const before = (await call('get_spot', { spotId })).body;
    const a = await call('update_spot', { spotId, customValues: { [key]: value } });
    if (!a.ok) assert.deepEqual((await call('get_spot', { spotId })).body, before, 'a refusal wrote nothing');
    return a;
  };
  const accepts = async (key: string, value: unknown, stored: unknown = value) => {
    const a = await write(key, value);
    assertOk(a);
    assert.deepEqual(a.body.customValues[key], stored, `${key} = ${JSON.stringify(value)}`);
  };
  const refuses = async (key: string, value: unknown, code: Code, path = `customValues.${key}`) => {
    assertError(await write(key, value), code, path);
  };
  const removes = async (key: string, value: unknown) => {
    const a = await write(key, value);
    assertOk(a);
    assert.equal(key in a.body.customValues, false, `${key} = ${JSON.stringify(value)} removes the value`);
  };

  it('number: finite numbers only', async () => {
    await accepts('height', 3.5);
    await accepts('height', -12);
    await accepts('height', 0);
    await refuses('height', '12', 'invalid_argument');
    await refuses('height', true, 'invalid_argument');
    await refuses('height', [1], 'invalid_argument');
  });

  it('date: a calendar day written YYYY-MM-DD', async () => {
    await accepts('opened', '2024-02-29');
    await refuses('opened', '2026-02-30', 'invalid_request');
    await refuses('opened', '2026-13-01', 'invalid_request');
    await refuses('opened', '1 May 2026', 'invalid_argument');
    await refuses('opened', 20260101, 'invalid_argument');
  });

  it('shortLabel: one line of at most 200 characters', async () => {
    await accepts('label', 'Emerald green');
    await accepts('label', 's'.repeat(200));
    await refuses('label', 'two\nlines', 'invalid_request');
    await refuses('label', 'carriage\rreturn', 'invalid_request');
    await refuses('label', 's'.repeat(201), 'invalid_request');
    await refuses('label', 5, 'invalid_argument');
  });

  it('longSection: prose over several lines, at most 10,000', async () => {
    const prose = 'First paragraph.\n\nSecond paragraph,\nwith a line break.';
    await accepts('story', prose);
    await accepts('story', 'p'.repeat(10_000));
    await refuses('story', 'p'.repeat(10_001), 'invalid_request');
    await refuses('story', { text: 'x' }, 'invalid_argument');
  });

  it('lengths count characters, an emoji being one, as every text field counts them', async () => {
    await accepts('label', '🏔'.repeat(200));
    await refuses('label', '🏔'.repeat(201), 'invalid_request');
    assert.match((await write('label', '🏔'.repeat(201))).body.error.message, /at most 200 characters \(got 201\)/);
    await accepts('story', '🌲'.repeat(10_000));
    await refuses('story', '🌲'.repeat(10_001), 'invalid_request');
  });

  it('singleSelect: one live option id', async () => {
    await accepts('type', 'lake');
    await accepts('type', 'peak');
    await refuses('type', 'old', 'invalid_request');
    await refuses('type', 'river', 'invalid_request');
    await refuses('type', 'Lake', 'invalid_request');
    await refuses('type', ['lake'], 'invalid_argument');
    await removes('type', '');
  });

  it('checkbox: a list of live option ids, each once', async () => {
    await accepts('tags', ['blue', 'red']);
    await accepts('tags', ['red']);
    await refuses('tags', ['red', 'red'], 'invalid_request');
    await refuses('tags', ['red', 'old'], 'invalid_request', 'customValues.tags[1]');
    await refuses('tags', ['green'], 'invalid_request', 'customValues.tags[0]');
    await refuses('tags', 'red', 'invalid_argument');
    await refuses('tags', [1], 'invalid_argument');
    await removes('tags', []);
  });

  it('an unknown key is refused naming it; null removes a value', async () => {
    await accepts('height', 7);
    await refuses('heigth', 7, 'invalid_request');
    const message = (await write('heigth', 7)).body.error.message;
    assert.match(message, /height/, 'the refusal lists the keys there are');
    await removes('height', null);
    await accepts('label', 'kept');
    await removes('label', '');
  });

  it('upsert_spots names the item: spots[i].customValues.key', async () => {
    const a = await call('upsert_spots', {
      productId,
      spots: [
        { spotKey: 'valued', customValues: { height: 1 } },
        { spotKey: 'fresh', name: 'Fresh', customValues: { opened: '2026-02-30' } },
      ],
    });
    assertError(a, 'invalid_request', 'spots[1].customValues.opened');
    const b = await call('upsert_spots', {
      productId,
      spots: [{ spotKey: 'fresh', name: 'Fresh', customValues: { height: 'tall' } }],
    });
    assertError(b, 'invalid_argument', 'spots[0].customValues.height');
    const c = await call('upsert_spots', {
      productId,
      spots: [{ spotKey: 'fresh', name: 'Fresh', customValues: { colour: 'x' } }],
    });
    assertError(c, 'invalid_request', 'spots[0].customValues.colour');
    const l = await call('list_spots', { productId, includeArchived: true });
    assert.equal(l.body.count, 1);
  });
});
