/**
 * Visits every string in a parsed input with its path (`fees[3].label`) and the name of the field
 * that holds it (for strings in arrays, the array's field).
 */
export function forEachString(value: unknown, visit: (text: string, path: string, field: string) => void): void {
  const walk = (item: unknown, path: string, field: string): void => {
    if (typeof item === 'string') visit(item, path, field);
    else if (Array.isArray(item)) {
      for (const [i, inner] of item.entries()) walk(inner, `${path}[${i}]`, field);
    } else if (item !== null && typeof item === 'object') {
      for (const [key, inner] of Object.entries(item)) walk(inner, path === '' ? key : `${path}.${key}`, key);
    }
  };
  walk(value, '', '');
}
