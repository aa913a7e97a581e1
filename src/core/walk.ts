/** A field's path as messages name it: `fees[3].label`; the input itself is `(input)`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out === '' ? '(input)' : out;
}

/**
 * Visits every string in a parsed input with the name of the field that holds it (for strings in
 * arrays, the array's field) and its path (`fees[3].label`), made only when asked for: inputs run
 * to tens of kilobytes and most strings need no path.
 */
export function forEachString(value: unknown, visit: (text: string, field: string, path: () => string) => void): void {
  const segments: (string | number)[] = [];
  const path = () => formatPath(segments);
  const walk = (item: unknown, field: string): void => {
    if (typeof item === 'string') visit(item, field, path);
    else if (Array.isArray(item)) {
      for (let i = 0; i < item.length; i++) {
        segments.push(i);
        walk(item[i], field);
        segments.pop();
      }
    } else if (item !== null && typeof item === 'object') {
      for (const key in item) {
        segments.push(key);
        walk((item as Record<string, unknown>)[key], key);
        segments.pop();
      }
    }
  };
  walk(value, '');
}
