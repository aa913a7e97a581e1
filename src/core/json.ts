// Kept for frozen values only, which stay frozen: a value found here needs no Object.isFrozen (which
// checks every property of a large record each time).
const texts = new WeakMap<object, string>();
const bytes = new WeakMap<object, Buffer>();
const literals = new WeakMap<object, Buffer>();
/** Copies whose text is spliced from their original's when asked (frozenWithLast). */
const spliced = new WeakMap<object, () => string>();

/**
 * A result as JSON text. Frozen results are cached views served again and again: their text is
 * made once. Anything else is serialized each time.
 */
export function jsonOf(value: object): string {
  let text = texts.get(value);
  if (text === undefined) {
    if (!Object.isFrozen(value)) return JSON.stringify(value);
    const splice = spliced.get(value);
    if (splice) return splice();
    text = JSON.stringify(value);
    texts.set(value, text);
  }
  return text;
}

/** A result as UTF-8 JSON bytes, encoded once for a frozen result (a large list is megabytes). */
export function jsonBytesOf(value: object): Buffer {
  let encoded = bytes.get(value);
  if (encoded === undefined) {
    if (!Object.isFrozen(value)) return Buffer.from(JSON.stringify(value));
    encoded = Buffer.from(jsonOf(value));
    bytes.set(value, encoded);
  }
  return encoded;
}

/**
 * A frozen result's JSON as a JSON string, UTF-8: what an MCP answer carries as its text, inside
 * the JSON-RPC message; escaped once. Undefined for anything else (serialized with its message).
 */
export function keptJsonLiteralBytesOf(value: object): Buffer | undefined {
  let literal = literals.get(value);
  if (literal === undefined) {
    if (!Object.isFrozen(value)) return undefined;
    literal = Buffer.from(JSON.stringify(jsonOf(value)));
    literals.set(value, literal);
  }
  return literal;
}

/**
 * A frozen copy of the frozen `value` with its last member, a string, set to `replacement`, and its
 * JSON made by swapping that member's value in the original's text rather than by serializing the
 * copy: a kept page answered with a cursor of its own is not serialized a second time (about 95 KB
 * of JSON for a page of full spots). The text is the one JSON.stringify gives the copy: the copy has
 * the original's members in its order, and the swapped member is checked to end the original's text.
 */
export function frozenWithLast<T extends object>(value: T, key: keyof T & string, replacement: string): T {
  const copy = Object.freeze({ ...value, [key]: replacement });
  const original = (value as Record<string, unknown>)[key];
  if (!Object.isFrozen(value) || typeof original !== 'string' || Object.keys(value).at(-1) !== key) return copy;
  if ('toJSON' in value) return copy;
  const text = jsonOf(value);
  const name = JSON.stringify(key);
  const tail = `${name}:${JSON.stringify(original)}}`;
  if (!text.endsWith(tail)) return copy;
  const head = text.slice(0, text.length - tail.length);
  const end = `${name}:${JSON.stringify(replacement)}}`;
  // Joined when asked and not kept: its bytes and escaped form are kept (jsonBytesOf,
  // keptJsonLiteralBytesOf), and a second text of the page would be one more copy for the collector.
  spliced.set(copy, () => head + end);
  return copy;
}
