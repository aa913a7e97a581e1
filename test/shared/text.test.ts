import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { candidateStem, firstFree, nameText, requiredText, slugify, text, withCommas } from '../../src/shared/text.ts';
import { refusals } from '../helpers/refusals.ts';

const field = (schema: z.ZodType) => z.strictObject({ f: schema });

describe('text lengths count characters (code points)', () => {
  it('an emoji is one character, as JSON Schema maxLength counts it', () => {
    assert.deepEqual(refusals(field(text(3)), { f: '🏔🏔🏔' }), []);
    assert.deepEqual(refusals(field(text(3)), { f: '🏔🏔🏔🏔' }), ['f: must be at most 3 characters (got 4)']);
  });
});

describe('names that must say something', () => {
  it('requiredText refuses empty and only spaces alike', () => {
    assert.deepEqual(refusals(field(requiredText(10)), { f: '' }), ['f: must not be empty']);
    assert.deepEqual(refusals(field(requiredText(10)), { f: '   ' }), ['f: must not be empty']);
  });

  it('nameText says which: empty, or only spaces', () => {
    assert.equal(refusals(field(nameText(10)), { f: '' })[0], 'f: must not be empty');
    assert.deepEqual(refusals(field(nameText(10)), { f: ' \t ' }), ['f: must not be only spaces']);
    assert.deepEqual(refusals(field(nameText(10)), { f: ' a ' }), []);
  });
});

describe('slugs and free values', () => {
  it('slugify folds accents and turns the rest into hyphens, within 63', () => {
    assert.equal(slugify('Dolomites: the best hikes!'), 'dolomites-the-best-hikes');
    assert.equal(slugify('Čerín & Ötztal'), 'cerin-otztal');
    assert.equal(slugify('🏔🏔', 'spot'), 'spot');
    assert.equal(slugify('a'.repeat(70)).length, 63);
  });

  it('firstFree numbers from 2 and shortens the base, never the number', () => {
    assert.equal(firstFree('lake', new Set()), 'lake');
    assert.equal(firstFree('lake', new Set(['lake', 'lake-2'])), 'lake-3');
    assert.equal(firstFree('abcdef', new Set(['abcdef']), 6), 'abcd-2');
    assert.equal(firstFree('key', new Set(['key']), 40, '_'), 'key_2');
  });

  it('candidateStem is what every candidate of a long base starts with', () => {
    const base = 'b'.repeat(63);
    const taken = new Set([base]);
    for (let n = 0; n < 12; n++) taken.add(firstFree(base, taken));
    for (const value of taken) assert.ok(value.startsWith(candidateStem(base)), value);
  });
});

describe('withCommas', () => {
  it('writes a whole number as toLocaleString("en") does', () => {
    for (const n of [0, 7, 999, 1000, 2000, 12_345, 100_000, 999_999, 1_000_000, 5_242_880, -1000, -123_456_789]) {
      assert.equal(withCommas(n), n.toLocaleString('en'));
    }
  });
});
