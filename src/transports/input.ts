import type { z } from 'zod';
import { ApiError } from '../core/errors.ts';
import type { AnyOperation } from '../core/operation.ts';
import { emptyRecord } from '../core/own.ts';
import { SEND_JSON } from './http-errors.ts';

type Coerce = (value: string) => unknown;

/** The field's own type, under optional, nullable and default. */
function baseType(schema: z.ZodType): string {
  let inner: z.ZodType = schema;
  for (;;) {
    const def = inner.def as { type: string; innerType?: z.ZodType };
    if ((def.type === 'optional' || def.type === 'nullable' || def.type === 'default') && def.innerType) {
      inner = def.innerType;
      continue;
    }
    return def.type;
  }
}

/** The JSON type a query string (or form field) must become for a field: they arrive as text. */
function coercerFor(type: string): Coerce | undefined {
  if (type === 'number' || type === 'int') {
    return (v) => (v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v);
  }
  if (type === 'boolean') return (v) => (v === 'true' ? true : v === 'false' ? false : v);
  // An object in a form field or the query comes as its JSON text ({"kind":"spot"}).
  if (type === 'object') return (v) => parsedOr(v, '{');
  return undefined;
}

/**
 * A list field's values as text: its JSON text once (["a","b"]), or one value per item (the field
 * repeated, as OpenAPI sends a form's or a query's list); a lone value is a list of one. Text that
 * opens a JSON list but is not one stays text, for the schema to refuse as not a list.
 */
function listOf(values: readonly string[]): unknown {
  const items: unknown[] = [];
  for (const text of values) {
    const parsed = parsedOr(text, '[');
    if (Array.isArray(parsed)) items.push(...parsed);
    else if (text.trimStart().startsWith('[')) return text;
    else items.push(text);
  }
  return items;
}

function parsedOr(text: string, opening: string): unknown {
  if (!text.trimStart().startsWith(opening)) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** How one operation's REST request becomes the same single input object MCP arguments are. */
export class InputMerger {
  private readonly coercers = new Map<string, Coerce>();
  private readonly lists = new Set<string>();
  private readonly operation: AnyOperation;

  constructor(operation: AnyOperation) {
    this.operation = operation;
    for (const [field, schema] of Object.entries(operation.input.shape as Record<string, z.ZodType>)) {
      const type = baseType(schema);
      if (type === 'array') this.lists.add(field);
      const coerce = coercerFor(type);
      if (coerce) this.coercers.set(field, coerce);
    }
  }

  /** `form` holds the text fields of a multipart upload, read like the query's. */
  merge(
    params: Record<string, string>,
    query: Record<string, unknown>,
    body: unknown,
    form: Record<string, string | string[]> = {},
  ): Record<string, unknown> {
    // Only Fastify's text/plain parser yields text: JSON sent under the wrong type, as a form would be.
    if (typeof body === 'string') throw new ApiError('invalid_argument', SEND_JSON);
    if (body !== undefined && body !== null && (typeof body !== 'object' || Array.isArray(body))) {
      throw new ApiError('invalid_argument', '(body): expected a JSON object');
    }
    if (body === undefined && isEmpty(query) && isEmpty(form)) return this.fromPath(params);
    // Keys a client chose: a record without a prototype (own.ts).
    const input = Object.assign(emptyRecord<unknown>(), body as Record<string, unknown> | undefined);
    for (const [field, value] of Object.entries(form)) {
      if (Array.isArray(value) && !this.lists.has(field)) {
        throw new ApiError(
          'invalid_argument',
          `${field}: sent ${value.length} times in the form; it takes one value, so send it once`,
        );
      }
      setOnce(input, field, this.fromText(field, value), 'form');
    }
    for (const [field, raw] of Object.entries(query)) {
      const value = Array.isArray(raw) && !this.lists.has(field) ? raw[raw.length - 1] : raw;
      setOnce(input, field, this.fromText(field, value), 'query');
    }
    for (const param of this.operation.pathParams) {
      setOnce(input, param, this.fromText(param, decodeSafe(params[param] ?? '')), 'path');
    }
    return input;
  }

  /**
   * The input of a request that sends only its path (most reads): the parameters, named by the
   * operation, in a plain object. V8 keeps a prototype-less object as a dictionary, slower to fill
   * and to read for every step after (the checks, zod).
   */
  private fromPath(params: Record<string, string>): Record<string, unknown> {
    const input: Record<string, unknown> = {};
    for (const param of this.operation.pathParams) input[param] = this.fromText(param, decodeSafe(params[param] ?? ''));
    return input;
  }

  /** A value that came as text (or as several texts, for a list) in the type its field takes. */
  private fromText(field: string, value: unknown): unknown {
    if (this.lists.has(field) && (typeof value === 'string' || Array.isArray(value))) {
      return listOf((Array.isArray(value) ? value : [value]).map(String));
    }
    const coerce = this.coercers.get(field);
    return typeof value === 'string' && coerce ? coerce(value) : value;
  }
}

function isEmpty(record: object): boolean {
  for (const _ in record) return false;
  return true;
}

function setOnce(input: Record<string, unknown>, field: string, value: unknown, where: string): void {
  if (Object.hasOwn(input, field) && input[field] !== value) {
    throw new ApiError(
      'invalid_argument',
      `${field}: given twice with different values (in the ${where} and the body); send it once`,
    );
  }
  input[field] = value;
}

function decodeSafe(value: string): string {
  // Nothing to decode without an escape (decodeURIComponent costs more than the rest of merge).
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
