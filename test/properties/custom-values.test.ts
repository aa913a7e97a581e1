import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CustomValuesWriter } from '../../src/resources/properties/custom-values.ts';
import type { PropertyKind } from '../../src/resources/properties/property.schema.ts';
import type { OwnedProperty } from '../../src/resources/properties/property.store.ts';
import { thrown } from '../helpers/refusals.ts';

function property(key: string, kind: PropertyKind, extra: Partial<OwnedProperty> = {}): OwnedProperty {
  return {
    propertyDefId: `def-${key}`,
    guideId: 'g',
    key,
    label: key,
    kind,
    order: 1,
    required: false,
    filterable: false,
    placeholder: null,
    numUnit: null,
    options: [],
    archived: false,
    schemaVersion: 1,
    ...extra,
  };
}

const options = [
  { id: 'lake', label: 'Lake', order: 1, archived: false },
  { id: 'old', label: 'Old', order: 2, archived: true },
];
const writer = new CustomValuesWriter([
  property('label', 'shortLabel'),
  property('story', 'longSection'),
  property('height', 'number'),
  property('opened', 'date'),
  property('type', 'singleSelect', { options }),
  property('tags', 'checkbox', { options }),
  property('retired', 'shortLabel', { archived: true }),
]);

describe('CustomValuesWriter: values by their property kind', () => {
  it('counts lengths in characters, an emoji being one', () => {
    assert.deepEqual(writer.applyValues({}, { label: '🏔'.repeat(200) }), { label: '🏔'.repeat(200) });
    const label = thrown(() => writer.applyValues({}, { label: '🏔'.repeat(201) }));
    assert.equal(label.code, 'invalid_request');
    assert.equal(label.message, 'customValues.label: must be at most 200 characters (got 201).');
    assert.doesNotThrow(() => writer.applyValues({}, { story: '🌲'.repeat(10_000) }));
    assert.match(thrown(() => writer.applyValues({}, { story: '🌲'.repeat(10_001) })).message, /got 10001/);
    assert.deepEqual(writer.applyNotes({}, { label: '🏔'.repeat(1000) }), { label: '🏔'.repeat(1000) });
    assert.equal(
      thrown(() => writer.applyNotes({}, { label: '🏔'.repeat(1001) })).message,
      'customNotes.label: must be at most 1000 characters (got 1001).',
    );
  });

  it('a shortLabel is one line', () => {
    assert.match(thrown(() => writer.applyValues({}, { label: 'a\nb' })).message, /one line/);
  });

  it('merges by key; null or an empty value removes one', () => {
    const current = { label: 'x', height: 3, tags: ['lake'] };
    assert.deepEqual(writer.applyValues(current, { label: null, tags: [], height: 4 }), { height: 4 });
    assert.deepEqual(writer.applyValues(current, { type: '' }), current);
  });

  it('takes only live options, each once', () => {
    assert.deepEqual(writer.applyValues({}, { type: 'lake', tags: ['lake'] }), { type: 'lake', tags: ['lake'] });
    assert.equal(thrown(() => writer.applyValues({}, { type: 'old' })).details?.path, 'customValues.type');
    assert.equal(thrown(() => writer.applyValues({}, { tags: ['lake', 'old'] })).details?.path, 'customValues.tags[1]');
    assert.match(thrown(() => writer.applyValues({}, { tags: ['lake', 'lake'] })).message, /twice/);
  });

  it('refuses the wrong type as invalid_argument, a day off the calendar as invalid_request', () => {
    assert.equal(thrown(() => writer.applyValues({}, { height: '3' })).code, 'invalid_argument');
    assert.equal(thrown(() => writer.applyValues({}, { height: Number.NaN })).code, 'invalid_argument');
    assert.equal(thrown(() => writer.applyValues({}, { opened: '2026/01/01' })).code, 'invalid_argument');
    assert.equal(thrown(() => writer.applyValues({}, { opened: '2026-02-30' })).code, 'invalid_request');
  });

  it('names the keys on an unknown one; an archived property may only lose its value', () => {
    assert.match(thrown(() => writer.applyValues({}, { heigth: 1 })).message, /its keys are label, story/);
    assert.match(thrown(() => writer.applyValues({}, { retired: 'x' })).message, /archived/);
    assert.deepEqual(writer.applyValues({ retired: 'x' }, { retired: null }), {});
  });
});
