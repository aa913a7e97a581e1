import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { renderReference } from '../../src/docs/reference.ts';
import { createRegistry } from '../../src/resources/index.ts';

test('docs/reference.md is what the declarations generate (run `npm run docs` after changing one)', () => {
  const committed = readFileSync(new URL('../../docs/reference.md', import.meta.url), 'utf8');
  assert.equal(committed, renderReference(createRegistry()));
});

test('the reference names every operation and every error code', () => {
  const text = renderReference(createRegistry());
  for (const op of createRegistry().operations) assert.match(text, new RegExp(`### ${op.name}\\n`));
  assert.match(text, /`internal_error` \| 500/);
});
