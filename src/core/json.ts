const texts = new WeakMap<object, string>();
const bytes = new WeakMap<object, Buffer>();

/**
 * A result as JSON text. Frozen results are cached views served again and again: their text is
 * made once. Anything else is serialized each time.
 */
export function jsonOf(value: object): string {
  if (!Object.isFrozen(value)) return JSON.stringify(value);
  let text = texts.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    texts.set(value, text);
  }
  return text;
}

/** A result as UTF-8 JSON bytes, encoded once for a frozen result (a large list is megabytes). */
export function jsonBytesOf(value: object): Buffer {
  if (!Object.isFrozen(value)) return Buffer.from(JSON.stringify(value));
  let encoded = bytes.get(value);
  if (encoded === undefined) {
    encoded = Buffer.from(jsonOf(value));
    bytes.set(value, encoded);
  }
  return encoded;
}
