import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { sourceFiles, srcDir } from './helpers/sources.ts';

/** Where tests and their helpers live, as CONTRIBUTING.md ("Tests") says: these checks keep it so. */
const root = fileURLToPath(new URL('../', import.meta.url));
const testDir = join(root, 'test');

test('every test lives under test/: src/ holds none', () => {
  const inSrc = sourceFiles(srcDir).filter((file) => file.endsWith('.test.ts'));
  assert.deepEqual(
    inSrc.map((file) => relative(root, file)),
    [],
    'move them to test/<area>/, named after the module they check',
  );
});

test('a module of test/ used beyond its own folder lives in test/helpers/', () => {
  const helpers = join(testDir, 'helpers');
  const users = new Map<string, string[]>();
  for (const file of [...sourceFiles(testDir), ...sourceFiles(join(root, 'bench'))]) {
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(/from\s+'(\.[^']+)'/g)) {
      const target = join(dirname(file), spec as string);
      users.set(target, [...(users.get(target) ?? []), file]);
    }
  }
  const strays = sourceFiles(testDir)
    .filter((file) => !file.endsWith('.test.ts') && dirname(file) !== helpers)
    .flatMap((file) =>
      (users.get(file) ?? [])
        .filter((user) => dirname(user) !== dirname(file))
        .map((user) => `${relative(root, user)} -> ${relative(root, file)}`),
    );
  assert.deepEqual(strays, [], 'move the module to test/helpers/');
});

test('a test named after an <entity>.<role>.ts module carries the same name, dot and all', () => {
  const modules = new Set(sourceFiles(srcDir).map((file) => basename(file, '.ts')));
  const dashed = sourceFiles(testDir)
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => basename(file, '.test.ts'))
    .filter((name) => !modules.has(name) && modules.has(name.replace(/-([a-z]+)$/, '.$1')))
    .map((name) => `${name}.test.ts`);
  assert.deepEqual(dashed, [], 'name it as the module it checks: property.rules.test.ts checks property.rules.ts');
});
