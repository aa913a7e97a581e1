import { test } from 'node:test';
import { specPath, specPresent } from './helpers/spec.ts';

// The comparisons need the specification, which a clone of the repository does not carry: there
// they skip with one note, in CI too (a clone's CI has no specification to compare against).
if (specPresent) {
  await import('./drift/compare.ts');
} else {
  test('the implementation matches the specification', {
    skip: `no specification at ${specPath} (set SPEC_DIR to compare against it)`,
  });
}
