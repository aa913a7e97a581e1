import type { z } from 'zod';
import { ApiError } from './errors.ts';
import { flatAcceptOf } from './flat-input.ts';
import { forEachString, formatPath, walkJson } from './walk.ts';

type Issue = z.core.$ZodIssue;

/**
 * The two 400 codes split by what is wrong: the shape of the input (invalid_argument) or a
 * well-shaped value that a writer refuses (invalid_request). This is the one place zod's issue
 * kinds are mapped onto them.
 */
const shapeIssues = new Set<Issue['code']>([
  'invalid_type',
  'unrecognized_keys',
  'invalid_value',
  'invalid_union',
  'invalid_key',
  'invalid_element',
]);

function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function describe(issue: Issue): string {
  const input = (issue as { input?: unknown }).input;
  switch (issue.code) {
    case 'invalid_type':
      if (input === undefined) return `is required (expected ${issue.expected})`;
      return `expected ${issue.expected}, got ${show(input)}`;
    case 'unrecognized_keys':
      return issue.keys.length > 1
        ? `unknown fields ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}; check their spelling or leave them out`
        : 'unknown field; check its spelling or leave it out';
    case 'invalid_value':
      if (!issue.message.startsWith('Invalid')) return `${issue.message}; got ${show(input)}`;
      if (issue.values.length > 15)
        return `is not one of the ${issue.values.length} accepted values; got ${show(input)}`;
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}; got ${show(input)}`;
    case 'too_big':
      return tooBig(issue, input);
    case 'too_small':
      return tooSmall(issue, input);
    case 'invalid_format':
      return issue.message && !issue.message.startsWith('Invalid')
        ? issue.message
        : `is not a valid ${issue.format}: ${show(input)}`;
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}`;
    case 'invalid_union':
      return `does not match any accepted form; got ${show(input)}`;
    default:
      return issue.message;
  }
}

/** How many characters people (and JSON Schema's maxLength) see: code points, an emoji being one. */
export function characterCount(value: string): number {
  let count = 0;
  for (const _ of value) count += 1;
  return count;
}

/** Whether `value` has more than `max` characters (code points). */
export function longerThan(value: string, max: number): boolean {
  // Code points never outnumber UTF-16 units: only a long string needs counting.
  return value.length > max && characterCount(value) > max;
}

/** The refusal of a text longer than `max` characters, in the words every such refusal uses. */
export function tooManyCharacters(max: number | bigint, value: unknown): string {
  return `must be at most ${String(max)} characters (got ${typeof value === 'string' ? characterCount(value) : '?'})`;
}

function tooBig(issue: Extract<Issue, { code: 'too_big' }>, input: unknown): string {
  const max = String(issue.maximum);
  if (issue.origin === 'string') return tooManyCharacters(issue.maximum, input);
  if (issue.origin === 'array' || issue.origin === 'set') {
    return `must have at most ${max} items (got ${(input as unknown[])?.length ?? '?'})`;
  }
  return `must be at most ${max}${issue.inclusive === false ? ' (exclusive)' : ''}; got ${show(input)}`;
}

function tooSmall(issue: Extract<Issue, { code: 'too_small' }>, input: unknown): string {
  const min = String(issue.minimum);
  if (issue.origin === 'string')
    return issue.minimum === 1 ? 'must not be empty' : `must be at least ${min} characters`;
  if (issue.origin === 'array' || issue.origin === 'set') return `must have at least ${min} items`;
  return `must be at least ${min}${issue.inclusive === false ? ' (exclusive)' : ''}; got ${show(input)}`;
}

/** An unknown field is named by its own path, not its parent's. */
function pathOf(issue: Issue): string {
  return formatPath(issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0] ?? ''] : issue.path);
}

/**
 * A union that took none of its options: when exactly one option got past the shape (its issues
 * are all refusals of a well-shaped value, as for "2026/01/01" against `"" or a date`), that
 * option's issues say what is wrong and what would be accepted, not "does not match any form".
 */
function unwrapUnion(issue: Issue): Issue[] {
  if (issue.code !== 'invalid_union') return [issue];
  const wellShaped = issue.errors.filter(
    (option) => option.length > 0 && option.every((i) => !shapeIssues.has(i.code)),
  );
  const [only] = wellShaped;
  if (wellShaped.length !== 1 || !only) return [issue];
  return only.flatMap((inner) => unwrapUnion({ ...inner, path: [...issue.path, ...inner.path] } as Issue));
}

/**
 * `writes`: whether the operation writes. Reads answer only invalid_argument for bad input (the
 * specification's error rule 1): invalid_request is a writer's refusal.
 */
export function issuesToError(raw: readonly Issue[], writes = true): ApiError {
  const issues = raw.flatMap(unwrapUnion);
  const shape = issues.find((i) => shapeIssues.has(i.code));
  const first = shape ?? issues[0];
  if (!first) return new ApiError('invalid_argument', 'The input was refused.');
  const path = pathOf(first);
  const listed = issues.slice(0, 20).map((i) => ({ path: pathOf(i), message: describe(i) }));
  return new ApiError(shape || !writes ? 'invalid_argument' : 'invalid_request', `${path}: ${describe(first)}`, {
    details: { path, issues: listed },
  });
}

/** Parses an operation's input; any refusal becomes the specification's error envelope. */
export function parseInput<S extends z.ZodType>(schema: S, raw: unknown, writes = true): z.output<S> {
  const accepted = flatAcceptOf(schema)?.(raw);
  if (accepted !== undefined) return accepted as z.output<S>;
  if (!flatAndClean(raw)) refuseProtoKeys(raw);
  const result = schema.safeParse(raw, { reportInput: true });
  if (!result.success) throw issuesToError(result.error.issues, writes);
  if (!flatAndClean(result.data)) refuseNul(result.data, writes);
  return result.data;
}

/**
 * Whether an input is an object of plain values (most reads: an id or two) with no `__proto__` key
 * and no NUL in any string: the two walks below would find nothing, so they are spared.
 */
function flatAndClean(input: unknown): boolean {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return false;
  for (const key in input) {
    if (key === '__proto__' || !Object.hasOwn(input, key)) return false;
    const value = (input as Record<string, unknown>)[key];
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return false;
    } else if (value !== null && typeof value === 'object') return false;
  }
  return true;
}

/**
 * No field of any operation is named `__proto__`, and a record (customValues, say) parsed with such
 * a key would drop it silently or take its value as the record's prototype: refused before parsing,
 * naming where it was sent.
 */
function refuseProtoKeys(raw: unknown): void {
  walkJson(raw, {
    key(key, at) {
      if (key === '__proto__') {
        const path = at();
        throw new ApiError('invalid_argument', `${path}: no field has this name; leave it out`, { details: { path } });
      }
    },
  });
}

/**
 * PostgreSQL text cannot hold U+0000, so such a value would fail there and pass on SQLite: it is
 * refused everywhere, in any field, naming the field.
 */
function refuseNul(input: unknown, writes: boolean): void {
  forEachString(input, (text, _field, at) => {
    if (text.includes('\u0000')) {
      const path = at();
      throw new ApiError(
        writes ? 'invalid_request' : 'invalid_argument',
        `${path}: contains the NUL character (U+0000), which cannot be stored; remove it.`,
        {
          details: { path },
        },
      );
    }
  });
}
