import { z } from 'zod';

export type JsonObject = Record<string, unknown>;

/**
 * Keywords that mean the same to draft-07 and 2020-12 validators. Anything else (prefixItems,
 * dependentRequired, unevaluated*, $anchor…) is read differently, or not at all, by older clients
 * (the 1.x MCP SDK validates with draft-07): it fails the build here instead of in their hands.
 */
const PORTABLE_KEYWORDS = new Set([
  'type',
  'enum',
  'const',
  'properties',
  'required',
  'additionalProperties',
  'propertyNames',
  'minProperties',
  'maxProperties',
  'items',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'anyOf',
  'oneOf',
  'allOf',
  'not',
  '$ref',
  '$defs',
  'description',
  'title',
  'default',
  'examples',
]);

/** Keywords that assert nothing: draft-07 ignores them beside `$ref` without changing the meaning. */
const ANNOTATIONS = new Set(['description', 'title', 'default', 'examples']);

/** The JSON Schema of a zod schema, readable alike by draft-07 and 2020-12 validators. */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonObject {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonObject;
  delete json.$schema;
  return portable(json, '#') as JsonObject;
}

/**
 * A tool's input schema: the full one, written shorter where that changes nothing a model reads
 * (nested `anyOf` flattened, `type` beside `const` dropped, the safe-integer bounds zod adds to every
 * `int()` dropped, a limit a description repeats from its own keyword dropped, `additionalProperties:
 * false` left out): models read it on every connection. The operation still refuses unknown fields.
 * The reference keeps those sentences: it shows descriptions, not keywords.
 */
export function toolInputSchema(schema: z.ZodType): JsonObject & { type: 'object' } {
  return shorter(jsonSchemaOf(schema, 'input')) as JsonObject & { type: 'object' };
}

function shorter(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(shorter);
  if (typeof node !== 'object' || node === null) return node;
  const out = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, shorter(v)])) as JsonObject;
  if (typeof out.properties === 'object' && out.properties !== null) {
    for (const [name, field] of Object.entries(out.properties as Record<string, JsonObject>)) {
      if (name.endsWith('Id') || name === 'cursor') withoutLengthBounds(field);
    }
  }
  if ('const' in out) delete out.type;
  // Objects are closed (an unknown field is refused, and the playbook says so once): the keyword
  // on every object was 5 KB of tools/list.
  if (out.additionalProperties === false) delete out.additionalProperties;
  if (typeof out.description === 'string') {
    const description = withoutStatedLimits(out.description, out);
    if (description === '') delete out.description;
    else out.description = description;
  }
  if (out.maximum === Number.MAX_SAFE_INTEGER) delete out.maximum;
  if (out.minimum === Number.MIN_SAFE_INTEGER) delete out.minimum;
  if (Array.isArray(out.anyOf)) {
    out.anyOf = out.anyOf.flatMap((member: JsonObject) =>
      Object.keys(member).length === 1 && Array.isArray(member.anyOf) ? member.anyOf : [member],
    );
    return nullableAsType(out);
  }
  return out;
}

/**
 * An id (a field named `…Id`) and a `cursor` (a `nextCursor`) are copied from an answer, never
 * written: their length bounds bind no real value and tell a model nothing. The operation still
 * checks them.
 */
function withoutLengthBounds(field: JsonObject): void {
  const types = ([] as unknown[]).concat(field.type ?? []);
  if (!types.includes('string')) return;
  delete field.minLength;
  delete field.maxLength;
}

/**
 * `{"anyOf":[{"type":"string","maxLength":9},{"type":"null"}]}` as `{"type":["string","null"],
 * "maxLength":9}`: the same to both drafts (string keywords ignore null), and what zod's
 * `.nullable()` writes on most fields.
 */
function nullableAsType(node: JsonObject): JsonObject {
  const { anyOf, ...outer } = node as { anyOf: JsonObject[] } & JsonObject;
  const isNull = (m: JsonObject) => m.type === 'null' && Object.keys(m).length === 1;
  const [value, other] = anyOf.filter((m) => !isNull(m)).concat(anyOf.length === 2 ? [] : [{}, {}]);
  if (anyOf.length !== 2 || !value || other || typeof value.type !== 'string' || '$ref' in value || 'const' in value) {
    return node;
  }
  if (Object.keys(outer).some((k) => !ANNOTATIONS.has(k) || k in value)) return node;
  const merged: JsonObject = { ...value, ...outer, type: [value.type, 'null'] };
  if (Array.isArray(value.enum)) merged.enum = [...value.enum, null];
  return merged;
}

/** Limits said in words that the schema beside them states as keywords ("at most 200" beside maxLength 200). */
function withoutStatedLimits(description: string, schema: JsonObject): string {
  const stated = new Set(
    [schema.maxLength, schema.maxItems, schema.maximum, schema.minimum, schema.minItems].filter(
      (n) => typeof n === 'number',
    ),
  );
  const isStated = (text: string) => stated.has(Number(text.replace(/,/g, '')));
  const number = '-?[\\d,]+(?:\\.\\d+)?';
  const atMost = new RegExp(
    `(^|[,;:] )at most (${number})(?: (?:characters|entries|items|[a-z]+s))?(?=[,;:.]|$)`,
    'gi',
  );
  const range = new RegExp(`(^|[,;:] )(${number}) to (${number})(?=[,;:.]|$)`, 'g');
  let out = description
    .replace(atMost, (whole, lead: string, n: string) => (isStated(n) ? lead.replace(/^[,;:] $/, '') : whole))
    .replace(range, (whole, lead: string, a: string, b: string) =>
      isStated(a) && isStated(b) ? lead.replace(/^[,;:] $/, '') : whole,
    )
    .replace(/^[,;:.]\s*/, '')
    .trim();
  if (out !== description && out.length > 0) out = out[0]?.toUpperCase() + out.slice(1);
  return out;
}

function portable(node: unknown, at: string): unknown {
  if (Array.isArray(node)) return node.map((item, i) => portable(item, `${at}/${i}`));
  if (typeof node !== 'object' || node === null) return node;
  let schema = { ...(node as JsonObject) };
  if ('prefixItems' in schema) schema = fromTuple(schema);
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (!PORTABLE_KEYWORDS.has(key)) {
      throw new Error(`${at}: JSON Schema keyword "${key}" is read differently by draft-07 validators`);
    }
    if (key === 'items' && (typeof value !== 'object' || value === null || Array.isArray(value))) {
      throw new Error(`${at}: "items" must be one schema to mean the same in draft-07 and 2020-12`);
    }
    if (key === 'description' && redundant(value as string, schema)) continue;
    if (key === 'properties' || key === '$defs') {
      out[key] = Object.fromEntries(
        Object.entries(value as JsonObject).map(([name, sub]) => [name, portable(sub, `${at}/${key}/${name}`)]),
      );
    } else {
      out[key] = portable(value, `${at}/${key}`);
    }
  }
  return refWithoutSiblings(out);
}

/**
 * A tuple's positions (`prefixItems` with `items: false`) are unknown to draft-07, which reads
 * `items: false` as "no items at all". Every position's schema becomes one `items` (any of them),
 * and the length stays: both drafts then read it alike, and the operation checks each position.
 */
function fromTuple(schema: JsonObject): JsonObject {
  const { prefixItems, items: _closed, ...rest } = schema;
  const positions = prefixItems as JsonObject[];
  const distinct = [...new Map(positions.map((p) => [JSON.stringify(p), p])).values()];
  const items = distinct.length === 1 ? distinct[0] : { anyOf: distinct };
  return { ...rest, items, minItems: positions.length, maxItems: positions.length };
}

/** Draft-07 ignores every keyword beside `$ref`: assertions there move into an `allOf`. */
function refWithoutSiblings(schema: JsonObject): JsonObject {
  if (!('$ref' in schema)) return schema;
  const asserting = Object.keys(schema).filter((k) => k !== '$ref' && !ANNOTATIONS.has(k));
  if (asserting.length === 0) return schema;
  const { $ref, ...rest } = schema;
  return { ...rest, allOf: [{ $ref }] };
}

/**
 * A description that only repeats what the schema says: a type's bare name ("Fee") or a limit
 * ("At most 300" beside maxLength 300).
 */
function redundant(description: string, schema: JsonObject): boolean {
  if (/^[A-Z][a-z]+(?:[A-Z][a-z]+)+$/.test(description)) return true;
  const limit = /^At most ([\d,]+)\.?$/.exec(description)?.[1];
  if (limit === undefined) return false;
  const n = Number(limit.replace(/,/g, ''));
  return schema.maxLength === n || schema.maxItems === n;
}
