import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { flatAcceptOf } from '../../src/core/flat-input.ts';
import { emptyRecord } from '../../src/core/own.ts';
import { parseInput } from '../../src/core/validation.ts';
import { createRegistry } from '../../src/resources/index.ts';
import { idSchema } from '../../src/shared/id-fields.ts';

/** Inputs around a flat schema's edges: what zod takes and what it refuses. */
function inputsFor(fields: readonly string[]): unknown[] {
  const valid = Object.fromEntries(fields.map((f) => [f, 'gd_1']));
  const withValue = (value: unknown) => fields.map((f) => ({ ...valid, [f]: value }));
  const nullPrototype = Object.assign(emptyRecord<unknown>(), valid);
  const [first] = fields;
  return [
    valid,
    nullPrototype,
    ...withValue(''),
    ...withValue('x'),
    ...withValue('x'.repeat(100)),
    ...withValue('x'.repeat(101)),
    ...withValue('a\u0000b'),
    ...withValue(7),
    ...withValue(null),
    ...withValue(undefined),
    ...withValue(['gd_1']),
    ...withValue({ id: 'gd_1' }),
    { ...valid, extra: 'x' },
    Object.assign(emptyRecord<unknown>(), valid, { __proto__: 'x' }),
    first === undefined ? {} : Object.fromEntries(fields.filter((f) => f !== first).map((f) => [f, 'gd_1'])),
    Object.create(valid),
    [],
    null,
    'gd_1',
    undefined,
  ];
}

describe('flat inputs accepted without zod', () => {
  it('accepts only what zod accepts, with the same answer, for every operation whose input is flat', () => {
    let flat = 0;
    for (const operation of createRegistry().operations) {
      const accept = flatAcceptOf(operation.input);
      if (!accept) continue;
      flat += 1;
      const fields = Object.keys(operation.input.shape);
      for (const input of inputsFor(fields)) {
        const quick = accept(input);
        if (quick === undefined) continue;
        const zod = operation.input.safeParse(input);
        assert.ok(zod.success, `${operation.name}: accepted ${JSON.stringify(input)}, which zod refuses`);
        assert.deepEqual(quick, zod.data, operation.name);
        // The same members in the same order: the answer's JSON (a cursor, a record) may be made from it.
        assert.deepEqual(Object.keys(quick), Object.keys(zod.data), operation.name);
        assert.equal(Object.getPrototypeOf(quick), Object.getPrototypeOf(zod.data));
      }
    }
    assert.ok(flat >= 3, `only ${flat} operations have flat inputs: get_guide, get_spot and others do`);
  });

  it('answers a plain id without running zod, and leaves refusals to it', () => {
    const schema = z.strictObject({ productId: idSchema('From list_guides') });
    const safeParse = schema.safeParse.bind(schema);
    let ran = 0;
    schema.safeParse = ((data: unknown, params?: z.core.ParseContext<z.core.$ZodIssue>) => {
      ran += 1;
      return safeParse(data, params);
    }) as typeof schema.safeParse;
    assert.deepEqual(parseInput(schema, { productId: 'gd_1' }, false), { productId: 'gd_1' });
    assert.equal(ran, 0);
    assert.throws(() => parseInput(schema, { productId: 'gd_1', other: 1 }, false), {
      code: 'invalid_argument',
      message: 'other: unknown field; check its spelling or leave it out',
    });
    assert.equal(ran, 1);
  });

  it('is not used where zod does more than check: formats, defaults, optional fields, other types', () => {
    for (const schema of [
      z.strictObject({ id: z.string().trim() }),
      z.strictObject({ id: z.string().regex(/^gd_/) }),
      z.strictObject({ id: z.string().optional() }),
      z.strictObject({ id: z.string().default('x') }),
      z.strictObject({ id: z.coerce.string() }),
      z.strictObject({ limit: z.number() }),
      z.object({ id: z.string() }),
      z.strictObject({ id: z.string().refine((v) => v !== 'x') }),
    ]) {
      assert.equal(flatAcceptOf(schema), null, JSON.stringify(schema.def));
    }
  });
});
