import type { z } from 'zod';

/**
 * Inputs zod would take as they are, told without running zod. Most reads take an id or two: a
 * strict object of strings bounded in length (`z.strictObject({ productId: idSchema(…) })`). For
 * such a schema, an object with exactly its fields, each a string within its bounds and without
 * NUL (which parseInput refuses after zod), is what zod accepts, and zod's answer is a plain object
 * of those fields in the schema's order: made here in a few hundred instructions instead of zod's
 * run (its context, its payload and issue arrays, its result; ~3–6k a cached get_guide). Anything
 * else, refusals included, goes to zod, so every refusal is zod's as before.
 */
export type FlatAccept = (raw: unknown) => Record<string, unknown> | undefined;

interface Bounded {
  name: string;
  min: number;
  max: number;
}

const accepts = new WeakMap<z.ZodType, FlatAccept | null>();

/** The schema's quick acceptance, or null when it is not a strict object of bounded plain strings. */
export function flatAcceptOf(schema: z.ZodType): FlatAccept | null {
  let accept = accepts.get(schema);
  if (accept === undefined) {
    const fields = boundedStrings(schema);
    accept = fields ? acceptOf(fields) : null;
    accepts.set(schema, accept);
  }
  return accept;
}

/** The fields of a strict object whose every field is a plain string with length bounds only. */
function boundedStrings(schema: z.ZodType): Bounded[] | undefined {
  const def = schema.def as { type: string; shape?: Record<string, z.ZodType>; catchall?: z.ZodType };
  if (def.type !== 'object' || def.catchall?.def.type !== 'never' || !def.shape) return undefined;
  const fields: Bounded[] = [];
  for (const [name, field] of Object.entries(def.shape)) {
    const fieldDef = field.def as { type: string; coerce?: boolean; checks?: Array<{ _zod: { def: unknown } }> };
    if (name === '__proto__' || fieldDef.type !== 'string' || fieldDef.coerce) return undefined;
    let min = 0;
    let max = Number.POSITIVE_INFINITY;
    for (const check of fieldDef.checks ?? []) {
      const c = check._zod.def as { check: string; minimum?: number; maximum?: number };
      if (c.check === 'min_length' && typeof c.minimum === 'number') min = Math.max(min, c.minimum);
      else if (c.check === 'max_length' && typeof c.maximum === 'number') max = Math.min(max, c.maximum);
      // A format, a pattern, a refinement, a trim: zod decides.
      else return undefined;
    }
    fields.push({ name, min, max });
  }
  return fields;
}

function acceptOf(fields: readonly Bounded[]): FlatAccept {
  return (raw) => {
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
    const input = raw as Record<string, unknown>;
    let present = 0;
    for (const key in input) {
      if (!Object.hasOwn(input, key)) return undefined;
      present += 1;
    }
    // Any other key is one a strict object refuses.
    if (present !== fields.length) return undefined;
    const accepted: Record<string, unknown> = {};
    for (const { name, min, max } of fields) {
      if (!Object.hasOwn(input, name)) return undefined;
      const value = input[name];
      if (typeof value !== 'string' || value.length < min || value.length > max || value.includes('\u0000')) {
        return undefined;
      }
      accepted[name] = value;
    }
    return accepted;
  };
}
