import { z } from 'zod';

export type JsonObject = Record<string, unknown>;

/**
 * How a schema is written. `full` carries every description and limit (the OpenAPI document, the
 * reference). `tool` is what MCP clients download on every connection: inputs stay full, since
 * the model writes them; outputs keep their shape (types, required fields, short enums) and drop
 * what only helps a writer (limits, descriptions, long code lists such as ISO 4217) and
 * `additionalProperties: false`, so a client validating an answer is never stricter than needed.
 */
export type SchemaForm = 'full' | 'tool';

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
const LIMITS = ['minLength', 'maxLength', 'minimum', 'maximum', 'minItems', 'maxItems', 'pattern'];
/** A longer enum in an answer is a code list (ISO 3166, ISO 4217): the input side says which. */
const LONG_ENUM = 30;

/** The JSON Schema of a zod schema, readable alike by draft-07 and 2020-12 validators. */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output', form: SchemaForm = 'full'): JsonObject {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonObject;
  delete json.$schema;
  const compact = form === 'tool' && io === 'output';
  const out = portable(json, compact, '#') as JsonObject;
  return compact ? inlineTrivialDefs(out) : out;
}

/** In a compact answer schema, `{"$ref":"#/$defs/Date"}` is longer than the `{"type":"string"}` it names. */
function inlineTrivialDefs(schema: JsonObject): JsonObject {
  const defs = schema.$defs as Record<string, JsonObject> | undefined;
  if (!defs) return schema;
  const trivial = new Map<string, JsonObject>();
  for (const [name, def] of Object.entries(defs)) {
    const text = JSON.stringify(def);
    if (text.length <= 40 && !text.includes('$ref')) trivial.set(`#/$defs/${name}`, def);
  }
  if (trivial.size === 0) return schema;
  const replace = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(replace);
    if (typeof node !== 'object' || node === null) return node;
    const { $ref, ...rest } = node as JsonObject;
    const target = typeof $ref === 'string' ? trivial.get($ref) : undefined;
    const mapped = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, replace(v)]));
    if (target) return { ...target, ...mapped };
    return $ref === undefined ? mapped : { $ref, ...mapped };
  };
  const out = replace(schema) as JsonObject;
  const kept = Object.fromEntries(
    Object.entries(out.$defs as JsonObject).filter(([n]) => !trivial.has(`#/$defs/${n}`)),
  );
  if (Object.keys(kept).length > 0) out.$defs = kept;
  else delete out.$defs;
  return out;
}

function portable(node: unknown, compact: boolean, at: string): unknown {
  if (Array.isArray(node)) return node.map((item, i) => portable(item, compact, `${at}/${i}`));
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
    if (compact && (key === 'description' || key === 'title' || LIMITS.includes(key))) continue;
    if (compact && key === 'additionalProperties' && value === false) continue;
    if (compact && key === 'enum' && Array.isArray(value) && value.length > LONG_ENUM) continue;
    if (key === 'properties' || key === '$defs') {
      out[key] = Object.fromEntries(
        Object.entries(value as JsonObject).map(([name, sub]) => [
          name,
          portable(sub, compact, `${at}/${key}/${name}`),
        ]),
      );
    } else {
      out[key] = portable(value, compact, `${at}/${key}`);
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
