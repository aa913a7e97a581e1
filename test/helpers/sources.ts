import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The service's code, for the tests that read it: src/, with a trailing separator. */
export const srcDir = fileURLToPath(new URL('../../src/', import.meta.url));

/** Every TypeScript module under `dir` (src/ unless told), at any depth. */
export function sourceFiles(dir = srcDir): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}
