import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkKindSettings, keyFromLabel, nextOptions } from '../../src/resources/properties/property.rules.ts';
import { thrown } from '../helpers/refusals.ts';

describe('property keys', () => {
  it('come from the label: folded, underscores, a letter first, at most 40', () => {
    assert.equal(keyFromLabel('Entry fee (€)'), 'entry_fee');
    assert.equal(keyFromLabel('Höhe über NN'), 'hohe_uber_nn');
    assert.equal(keyFromLabel('2nd entrance'), 'p_2nd_entrance');
    assert.equal(keyFromLabel('x'.repeat(50)).length, 40);
  });
});

describe('kind settings', () => {
  it('filterable, numUnit and options only on the kinds that have them', () => {
    assert.doesNotThrow(() => checkKindSettings('number', { filterable: true, numUnit: 'm' }));
    assert.doesNotThrow(() => checkKindSettings('checkbox', { filterable: true, options: [{}] }));
    assert.equal(thrown(() => checkKindSettings('shortLabel', { filterable: true })).details?.path, 'filterable');
    assert.equal(thrown(() => checkKindSettings('date', { numUnit: 'm' })).details?.path, 'numUnit');
    assert.equal(thrown(() => checkKindSettings('number', { options: [{}] })).details?.path, 'options');
    assert.doesNotThrow(() => checkKindSettings('number', { options: [] }));
  });
});

describe('options after a full-list edit', () => {
  const current = [
    { id: 'lake', label: 'Lake', order: 1, archived: false },
    { id: 'peak', label: 'Peak', order: 2, archived: false },
  ];

  it('keeps listed ids in the order given, mints new ids, archives the left-out ones', () => {
    const next = nextOptions(current, [{ label: 'Gorge' }, { id: 'lake', label: 'Lakes' }, { label: 'Lake' }]);
    assert.deepEqual(next, [
      { id: 'gorge', label: 'Gorge', order: 1, archived: false },
      { id: 'lake', label: 'Lakes', order: 2, archived: false },
      { id: 'lake-2', label: 'Lake', order: 3, archived: false },
      { id: 'peak', label: 'Peak', order: 4, archived: true },
    ]);
  });

  it('refuses an unknown id and an id listed twice', () => {
    assert.equal(thrown(() => nextOptions(current, [{ id: 'river', label: 'R' }])).details?.path, 'options[0].id');
    const twice = thrown(() =>
      nextOptions(current, [
        { id: 'lake', label: 'A' },
        { id: 'lake', label: 'B' },
      ]),
    );
    assert.equal(twice.details?.path, 'options[1].id');
  });
});
