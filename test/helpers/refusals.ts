import assert from 'node:assert/strict';
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
