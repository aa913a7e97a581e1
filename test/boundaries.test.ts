import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { Resource } from '../src/core/resource.ts';
import { sourceFiles, srcDir as src } from './helpers/sources.ts';

const resources = join(src, 'resources');

/**
 * Every relative module a file imports, re-exports from or loads on first use (`import('./x.ts')`),
 * type imports included, resolved to a path under src/.
 */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found = [
    ...text.matchAll(/(?:import|export)[^'"]*?from\s+['"](\.[^'"]+)['"]/g),
    ...text.matchAll(/\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/g),
  ].map((m) => m[1] as string);
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

/** Every import circle among the files given, each as the path round it (a -> b -> a). */
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

test('no import circle anywhere in src/: what two modules both need lives in a third', () => {
  const circles = circlesWithin(sourceFiles(src)).map((circle) =>
    circle.map((file) => relative(src, file)).join(' -> '),
  );
  assert.deepEqual(circles, [], 'loading on first use counts too: the module loaded must not import its loader');
});

/** A resource folder's declaration: the `Resource` its index.ts exports. */
async function declarationOf(folder: string): Promise<Resource> {
  const module = (await import(pathToFileURL(join(resources, folder, 'index.ts')).href)) as Record<string, unknown>;
  const found = Object.values(module).filter(
    (value): value is Resource =>
      typeof value === 'object' && value !== null && 'tag' in value && 'operations' in value,
  );
  assert.equal(found.length, 1, `${folder}/index.ts exports one Resource`);
  return found[0] as Resource;
}

/**
 * The stores a folder's files reach, read from their source: `stores.X` whatever holds the stores
 * (`ctx.stores.spots`, a `stores: Stores` parameter) and `const { X, Y } = ctx.stores`.
 */
function storesReachedIn(files: readonly string[]): Set<string> {
  const reached = new Set<string>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\bstores\.(\w+)\b(?!')/g)) reached.add(m[1] as string);
    for (const m of text.matchAll(/\{([^{}]*)\}\s*=\s*(?:\w+\.)?stores\b/g)) {
      for (const part of (m[1] as string).split(',')) {
        const name = part.split(':')[0]?.trim();
        if (name) reached.add(name);
      }
    }
  }
  return reached;
}

/** Ways to reach a store that `storesReachedIn` would not see: stores under another name, or by index. */
function hiddenReaches(files: readonly string[]): string[] {
  return files.flatMap((file) => {
    const text = readFileSync(file, 'utf8');
    const hidden = [
      ...text.matchAll(/\b(?:const|let)\s+\w+\s*=\s*(?:\w+\.)?stores\s*;/g),
      ...text.matchAll(/\bstores\s*\[/g),
      ...[...text.matchAll(/\b(\w+)\??:\s*(?:Readonly<)?Stores\b/g)].filter((m) => m[1] !== 'stores'),
    ];
    return hidden.map((m) => `${relative(src, file)}: ${m[0]}`);
  });
}

test('a resource reaches only its own stores and those its declaration lists (usesStores)', async () => {
  const folders = readdirSync(resources, { withFileTypes: true }).filter((entry) => entry.isDirectory());
  const wrong: string[] = [];
  const hidden: string[] = [];
  for (const { name: folder } of folders) {
    const declaration = await declarationOf(folder);
    const files = sourceFiles(join(resources, folder));
    const own = new Set(Object.keys(declaration.stores ?? {}));
    const reached = [...storesReachedIn(files)].filter((store) => !own.has(store)).sort();
    const declared = [...(declaration.usesStores ?? [])].sort();
    if (reached.join() !== declared.join()) {
      wrong.push(`${folder}: reaches [${reached.join(', ')}], declares [${declared.join(', ')}]`);
    }
    hidden.push(...hiddenReaches(files));
  }
  assert.deepEqual(hidden, [], 'name the stores `stores` and reach one as `stores.x`, so this test can see it');
  assert.deepEqual(wrong, [], "list exactly the other resources' stores a folder reaches in its usesStores");
});

/** The kinds a folder merges into `ReferenceTargets` (records of it that others may point at). */
function referenceKindsOf(files: readonly string[]): string[] {
  return files.flatMap((file) => {
    const block = /interface ReferenceTargets \{([\s\S]*?)\n {2}\}/.exec(readFileSync(file, 'utf8'))?.[1] ?? '';
    return [...block.matchAll(/^ {4}(\w+):/gm)].map((m) => m[1] as string);
  });
}

test('a kind of record others may point at is deleted through its declared references, by its own resource', async () => {
  const folders = readdirSync(resources, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  const owner = new Map<string, string>();
  const asked: string[] = [];
  const pointedAt = new Set<string>();
  for (const folder of folders) {
    const files = sourceFiles(join(resources, folder));
    for (const kind of referenceKindsOf(files)) owner.set(kind, folder);
    for (const file of files) {
      for (const m of readFileSync(file, 'utf8').matchAll(/deleteReferencesTo\('(\w+)'/g))
        asked.push(`${m[1]} ${folder}`);
    }
    for (const reference of (await declarationOf(folder)).references ?? []) pointedAt.add(reference.to);
  }
  assert.ok(owner.size > 0, 'resources declare the kinds others may point at');
  const strays = asked.filter((entry) => {
    const [kind = '', folder] = entry.split(' ');
    return owner.get(kind) !== folder;
  });
  assert.deepEqual(strays, [], 'only the resource whose record it is asks deleteReferencesTo for it');
  const neverAsked = [...owner].filter(([kind, folder]) => !asked.includes(`${kind} ${folder}`));
  assert.deepEqual(neverAsked, [], 'a kind others may point at is deleted through deleteReferencesTo');
  assert.deepEqual(
    [...pointedAt].filter((kind) => !owner.has(kind)),
    [],
    'a reference points at a declared kind',
  );
});
