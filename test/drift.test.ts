import { test } from 'node:test';
import { specPath, specPresent } from './helpers/spec.ts';

// The comparisons need the specification, which a clone of the repository does not carry: there
// they skip with one note. In CI a missing specification is a failure, not a skip.
if (specPresent) {
  await import('./drift/compare.ts');
} else if (process.env.CI === 'true') {
  throw new Error(`CI=true and the specification is missing at ${specPath}: set SPEC_DIR to its folder`);
} else {
  test('the implementation matches the specification', {
    skip: `no specification at ${specPath} (set SPEC_DIR to compare against it)`,
  });
}
