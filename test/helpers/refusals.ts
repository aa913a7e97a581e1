import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { z } from 'zod';
import { ApiError } from '../../src/core/errors.ts';
import { parseInput } from '../../src/core/validation.ts';

/** The ApiError a rule throws, for its code, path and message; fails when it throws nothing. */
export function thrown(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof ApiError, String(error));
    return error;
  }
  assert.fail('nothing was refused');
}

/** What a schema refuses, as the API words each issue ("path: message"); [] when it accepts the value. */
export function refusals(schema: z.ZodType, value: unknown): string[] {
  try {
    parseInput(schema, value);
    return [];
  } catch (error) {
    const issues = (error as ApiError).details?.issues as Array<{ path: string; message: string }>;
    return issues.map((i) => `${i.path}: ${i.message}`);
  }
}

/** A case of a refusal table: the fields sent, the code, the exact path the message starts with. */
export interface Refusal {
  title: string;
  fields: Record<string, unknown>;
  code: 'invalid_argument' | 'invalid_request';
  path: string;
  hint?: RegExp;
}

/** The table runner: one test per case, titled "label: title → code at path", checked by `check`. */
export function itRefusesEach(label: string, cases: readonly Refusal[], check: (c: Refusal) => Promise<void>): void {
  for (const c of cases) it(`${label}: ${c.title} → ${c.code} at ${c.path}`, () => check(c));
}

/** A row of a refusal table answered invalid_request: a writer refused a well-shaped value. */
export function refused(title: string, fields: Record<string, unknown>, path: string, hint?: RegExp): Refusal {
  return { title, fields, code: 'invalid_request', path, ...(hint && { hint }) };
}

/** A row of a refusal table answered invalid_argument: a wrong type, a value outside its list. */
export function refusedArgument(title: string, fields: Record<string, unknown>, path: string, hint?: RegExp): Refusal {
  return { title, fields, code: 'invalid_argument', path, ...(hint && { hint }) };
}
