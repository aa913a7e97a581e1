import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const src = fileURLToPath(new URL('../..', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

test('every update of a guide row goes through updateGuideRow, which moves the revision', () => {
  const direct = sourceFiles(src)
    .filter((file) => !file.endsWith('guide-row.ts'))
    .filter((file) => /updateTable\(\s*['"]guides['"]\s*\)/.test(readFileSync(file, 'utf8')))
    .map((file) => relative(src, file));
  assert.deepEqual(direct, [], 'these update guides directly; cached views would miss their changes');
});
