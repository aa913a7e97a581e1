import type { z } from 'zod';
import { ApiError } from '../core/errors.ts';
import type { AnyOperation } from '../core/operation.ts';
import { SEND_JSON } from './http-errors.ts';

type Coerce = (value: string) => unknown;

/** The JSON type a query string must become for a field: query values arrive as text. */
function coercerFor(schema: z.ZodType): Coerce | undefined {
  let inner: z.ZodType = schema;
  for (;;) {
    const def = inner.def as { type: string; innerType?: z.ZodType };
    if ((def.type === 'optional' || def.type === 'nullable' || def.type === 'default') && def.innerType) {
      inner = def.innerType;
      continue;
    }
    if (def.type === 'number' || def.type === 'int') {
      return (v) => (v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v);
    }
    if (def.type === 'boolean') return (v) => (v === 'true' ? true : v === 'false' ? false : v);
    return undefined;
  }
}

/** How one operation's REST request becomes the same single input object MCP arguments are. */
export class InputMerger {
  private readonly coercers = new Map<string, Coerce>();
  private readonly operation: AnyOperation;

  constructor(operation: AnyOperation) {
    this.operation = operation;
    for (const [field, schema] of Object.entries(operation.input.shape as Record<string, z.ZodType>)) {
      const coerce = coercerFor(schema);
      if (coerce) this.coercers.set(field, coerce);
    }
  }

  merge(params: Record<string, string>, query: Record<string, unknown>, body: unknown): Record<string, unknown> {
    // Only Fastify's text/plain parser yields text: JSON sent under the wrong type, as a form would be.
    if (typeof body === 'string') throw new ApiError('invalid_argument', SEND_JSON);
    if (body !== undefined && body !== null && (typeof body !== 'object' || Array.isArray(body))) {
      throw new ApiError('invalid_argument', '(body): expected a JSON object');
    }
    const input: Record<string, unknown> = { ...(body as Record<string, unknown> | undefined) };
    for (const [field, raw] of Object.entries(query)) {
      const value = Array.isArray(raw) ? raw[raw.length - 1] : raw;
      const coerce = this.coercers.get(field);
      setOnce(input, field, typeof value === 'string' && coerce ? coerce(value) : value, 'query');
    }
    for (const param of this.operation.pathParams) {
      setOnce(input, param, decodeSafe(params[param] ?? ''), 'path');
    }
    return input;
  }
}

function setOnce(input: Record<string, unknown>, field: string, value: unknown, where: string): void {
  if (field in input && input[field] !== value) {
    throw new ApiError(
      'invalid_argument',
      `${field}: given twice with different values (in the ${where} and the body); send it once`,
    );
  }
  input[field] = value;
}

function decodeSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
