import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { test } from 'node:test';
import { sourceFiles, srcDir as src } from '../helpers/sources.ts';

test('every update of a guide row goes through updateGuideRow, which moves the revision', () => {
  const direct = sourceFiles(src)
    .filter((file) => !file.endsWith('guide-row.ts'))
    .filter((file) => /updateTable\(\s*['"]guides['"]\s*\)/.test(readFileSync(file, 'utf8')))
    .map((file) => relative(src, file));
  assert.deepEqual(direct, [], 'these update guides directly; cached views would miss their changes');
});
