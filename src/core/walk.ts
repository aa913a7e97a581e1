type Segment = string | number;

function formatSegments(segments: readonly Segment[]): string {
  let out = '';
  for (const s of segments) out += typeof s === 'number' ? `[${s}]` : out === '' ? s : `.${s}`;
  return out;
}

/**
 * Visits every string in a parsed input with the name of the field that holds it (for strings in
 * arrays, the array's field) and its path (`fees[3].label`), made only when asked for: inputs run
 * to tens of kilobytes and most strings need no path.
 */
export function forEachString(value: unknown, visit: (text: string, field: string, path: () => string) => void): void {
  const segments: Segment[] = [];
  const path = () => formatSegments(segments);
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
