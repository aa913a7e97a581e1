import { ApiError } from '../core/errors.ts';

/**
 * How deep a JSON body may nest. The deepest input an operation takes, inside an MCP request's
 * envelope, is about a dozen levels; validation, error messages and logging all walk values
 * recursively, so depth is bounded once, here, where every JSON body (REST and MCP) is parsed.
 */
export const MAX_JSON_DEPTH = 64;

/** A JSON body as the value every transport receives; empty text is no body. */
export function parseJsonBody(text: string): unknown {
  if (!/\S/.test(text)) return undefined;
  let value: unknown;
  try {
    // V8 parses without recursion, so any depth parses; only what comes after must be spared it.
    value = JSON.parse(text);
  } catch (err) {
    throw new ApiError('invalid_argument', `(body): not valid JSON (${(err as Error).message})`);
  }
  if (nestsDeeperThan(value, MAX_JSON_DEPTH)) {
    throw new ApiError(
      'invalid_argument',
      `(body): nested deeper than ${MAX_JSON_DEPTH} levels of arrays and objects; no operation takes that`,
    );
  }
  return value;
}

/** Recursion bounded by `levels`: it stops as soon as the budget is spent. */
export function nestsDeeperThan(value: unknown, levels: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (levels === 0) return true;
  if (Array.isArray(value)) {
    for (const item of value) if (nestsDeeperThan(item, levels - 1)) return true;
    return false;
  }
  for (const key in value) {
    if (nestsDeeperThan((value as Record<string, unknown>)[key], levels - 1)) return true;
  }
  return false;
}
