/** A field's path as messages name it: `fees[3].label`; the input itself is `(input)`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out === '' ? '(input)' : out;
}

/** What walkJson calls back with: each string with its field's name, and each object key. */
export interface JsonVisitor {
  string?(text: string, field: string, path: () => string): void;
  /** An object's own key; the path ends with it. */
  key?(key: string, path: () => string): void;
}

/**
 * Visits a parsed input's strings and keys with the path that leads there (`fees[3].label`), made
 * only when asked for: inputs run to tens of kilobytes and most need no path. Own keys only.
 */
export function walkJson(value: unknown, visitor: JsonVisitor): void {
  const segments: (string | number)[] = [];
  const path = () => formatPath(segments);
  const walk = (item: unknown, field: string): void => {
    if (typeof item === 'string') visitor.string?.(item, field, path);
    else if (Array.isArray(item)) {
      for (let i = 0; i < item.length; i++) {
        segments.push(i);
        walk(item[i], field);
        segments.pop();
      }
    } else if (item !== null && typeof item === 'object') {
      for (const key of Object.keys(item)) {
        segments.push(key);
        visitor.key?.(key, path);
        walk((item as Record<string, unknown>)[key], key);
        segments.pop();
      }
    }
  };
  walk(value, '');
}

/**
 * Visits every string in a parsed input with the name of the field that holds it (for strings in
 * arrays, the array's field) and its path.
 */
export function forEachString(value: unknown, visit: (text: string, field: string, path: () => string) => void): void {
  walkJson(value, { string: visit });
}
