const texts = new WeakMap<object, string>();

/**
 * A result as JSON text. Frozen results are cached records served again and again: their text is
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
