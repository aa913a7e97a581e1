import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planConversion } from '../../src/resources/properties/conversion.ts';
import type { CustomValue, CustomValues } from '../../src/resources/properties/custom-values.ts';
import { type PropertyKind, propertyKinds, SHORT_LABEL_MAX } from '../../src/resources/properties/property.schema.ts';
import { thrown } from '../helpers/refusals.ts';

const spot = (
  spotKey: string,
  value: CustomValue,
): { spotId: string; spotKey: string; customValues: CustomValues } => ({
  spotId: `id-${spotKey}`,
  spotKey,
  customValues: { other: 1, k: value },
});

describe('planConversion: the conversion table', () => {
  const allowed = new Set([
    'singleSelect->checkbox',
    'checkbox->singleSelect',
    'shortLabel->longSection',
    'longSection->shortLabel',
  ]);

  it('allows exactly the four conversions of the table; any other pair is refused naming toKind', () => {
    for (const from of propertyKinds) {
      for (const to of propertyKinds) {
        if (from === to) continue;
        const pair = `${from}->${to}`;
        if (allowed.has(pair)) {
          assert.doesNotThrow(() => planConversion(from, to, 'k', []), pair);
        } else {
          const error = thrown(() => planConversion(from, to, 'k', []));
          assert.equal(error.code, 'invalid_request', pair);
          assert.equal(error.details?.path, 'toKind', pair);
          assert.match(error.message, /create a new property and archive this one/, pair);
        }
      }
    }
  });

  it('refuses a conversion to the kind the property already has', () => {
    for (const kind of propertyKinds) {
      assert.match(thrown(() => planConversion(kind, kind as PropertyKind, 'k', [])).message, /already/);
    }
  });

  it('singleSelect → checkbox wraps each value in a list, keeping the other values', () => {
    const plan = planConversion('singleSelect', 'checkbox', 'k', [spot('a', 'lake'), spot('b', 'peak')]);
    assert.deepEqual(plan.changes, [
      { spotId: 'id-a', customValues: { other: 1, k: ['lake'] } },
      { spotId: 'id-b', customValues: { other: 1, k: ['peak'] } },
    ]);
  });

  it('checkbox → singleSelect keeps the one option, and is refused while a spot holds two', () => {
    const plan = planConversion('checkbox', 'singleSelect', 'k', [spot('a', ['lake'])]);
    assert.deepEqual(plan.changes, [{ spotId: 'id-a', customValues: { other: 1, k: 'lake' } }]);
    const error = thrown(() =>
      planConversion('checkbox', 'singleSelect', 'k', [spot('a', ['lake']), spot('b', ['lake', 'peak'])]),
    );
    assert.match(error.message, /more than one option.*Spots in the way: b\.$/);
  });

  it('shortLabel ↔ longSection changes no stored value', () => {
    assert.deepEqual(planConversion('shortLabel', 'longSection', 'k', [spot('a', 'x')]).changes, []);
    assert.deepEqual(planConversion('longSection', 'shortLabel', 'k', [spot('a', 'x')]).changes, []);
  });

  it('longSection → shortLabel is refused by a line break or by more than 200 characters, emoji counting one', () => {
    const fits = '🏔'.repeat(SHORT_LABEL_MAX);
    assert.deepEqual(planConversion('longSection', 'shortLabel', 'k', [spot('a', fits)]).changes, []);
    const tooLong = thrown(() => planConversion('longSection', 'shortLabel', 'k', [spot('a', `${fits}🏔`)]));
    assert.match(tooLong.message, /one line of at most 200 characters.*Spots in the way: a\.$/);
    const twoLines = thrown(() => planConversion('longSection', 'shortLabel', 'k', [spot('b', 'one\ntwo')]));
    assert.match(twoLines.message, /Spots in the way: b\.$/);
  });

  it('names at most 20 spots in the way, then how many more', () => {
    const spots = Array.from({ length: 23 }, (_, i) => spot(`s${i}`, ['a', 'b']));
    const error = thrown(() => planConversion('checkbox', 'singleSelect', 'k', spots));
    const named = /Spots in the way: (.*) and 3 more\.$/.exec(error.message)?.[1]?.split(', ');
    assert.deepEqual(
      named,
      Array.from({ length: 20 }, (_, i) => `s${i}`),
    );
  });
});
