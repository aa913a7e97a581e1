import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { test } from 'node:test';
import { sourceFiles, srcDir as src } from './helpers/sources.ts';

const resources = join(src, 'resources');

/** Every relative module a file imports (or re-exports from), resolved to a path under src/. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found = [...text.matchAll(/(?:import|export)[^'"]*?from\s+['"](\.[^'"]+)['"]/g)].map((m) => m[1] as string);
  return found.map((spec) => relative(src, resolve(file, '..', spec)));
}

/** The top folder of a path under src/ (`core`, `shared`, `resources`…) and, for resources, which one. */
function placeOf(path: string): { layer: string; resource?: string; file: string } {
  const [layer = '', resource, ...rest] = path.split(sep);
  return layer === 'resources' && rest.length > 0
    ? { layer, resource, file: rest.join('/') }
    : { layer, file: [resource, ...rest].join('/') };
}

test('a resource reaches another resource only through its public module (index.ts)', () => {
  const reaching: string[] = [];
  for (const file of sourceFiles(resources)) {
    const from = placeOf(relative(src, file));
    for (const target of importsOf(file)) {
      const to = placeOf(target);
      if (to.layer !== 'resources' || to.resource === undefined || to.resource === from.resource) continue;
      if (to.file !== 'index.ts') reaching.push(`${relative(src, file)} -> ${target}`);
    }
  }
  assert.deepEqual(reaching, [], "import these through the resource's index.ts, or move what they need there");
});

test('the floor runs one way: core imports neither shared nor resources; shared imports no resource', () => {
  const upward: string[] = [];
  for (const file of sourceFiles(src)) {
    const from = placeOf(relative(src, file));
    for (const target of importsOf(file)) {
      const to = placeOf(target);
      const wrong =
        (from.layer === 'core' && (to.layer === 'shared' || to.layer === 'resources' || to.layer === 'transports')) ||
        (from.layer === 'shared' && (to.layer === 'resources' || to.layer === 'transports'));
      if (wrong) upward.push(`${relative(src, file)} -> ${target}`);
    }
  }
  assert.deepEqual(upward, [], 'core is the ground shared stands on, and both stand under the resources');
});

test('handlers reach stores through ctx.stores: no resource builds a store by hand', () => {
  const byHand = sourceFiles(resources)
    .filter((file) => !file.endsWith(`${sep}index.ts`))
    .filter((file) => {
      const text = readFileSync(file, 'utf8');
      // A store's own static factory may build it; nothing else may.
      return [...text.matchAll(/new ([A-Z]\w*Store)\(/g)].some((m) => !text.includes(`class ${m[1]} `));
    })
    .map((file) => relative(src, file));
  assert.deepEqual(byHand, [], "build stores in the resource's index.ts factory; handlers use ctx.stores");
});

/** Every import circle among one resource's files, each as the path round it (a -> b -> a). */
function circlesWithin(files: readonly string[]): string[][] {
  const inFolder = new Set(files);
  const edges = new Map(
    files.map((file) => [
      file,
      importsOf(file)
        .map((t) => join(src, t))
        .filter((t) => inFolder.has(t)),
    ]),
  );
  const circles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (file: string, path: string[]): void => {
    state.set(file, 'open');
    for (const next of edges.get(file) ?? []) {
      if (state.get(next) === 'open')
        circles.push([...(next === file ? [] : path.slice(path.indexOf(next))), file, next]);
      else if (!state.has(next)) visit(next, [...path, file]);
    }
    state.set(file, 'done');
  };
  for (const file of files) if (!state.has(file)) visit(file, []);
  return circles;
}

test('no import circle inside a resource: each file stands on the ones below it', () => {
  const circles = readdirSync(resources, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => circlesWithin(sourceFiles(join(resources, entry.name))))
    .map((circle) => circle.map((file) => relative(src, file)).join(' -> '));
  assert.deepEqual(circles, [], 'move what both sides need into a module of its own (type imports count too)');
});
