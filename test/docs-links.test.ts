import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, test } from 'node:test';

const root = new URL('..', import.meta.url).pathname;
const DECISIONS = 'docs/decisions';

/** The documents a newcomer follows links through, as paths from the repository's root. */
function documents(): string[] {
  const topics = readdirSync(join(root, DECISIONS)).map((name) => `${DECISIONS}/${name}`);
  return ['README.md', 'CONTRIBUTING.md', 'docs/decisions.md', ...topics];
}

function read(path: string): string {
  return readFileSync(join(root, path), 'utf8');
}

interface Link {
  href: string;
  /** The target as a path from the repository's root ('' for a link inside the same document). */
  path: string;
  anchor: string | undefined;
}

/** The relative links of a markdown document; links written inside code are not links. */
function relativeLinks(document: string): Link[] {
  const prose = read(document)
    .replace(/^```[\s\S]*?^```$/gm, '')
    .replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1] as string)
    .filter((href) => !/^[a-z]+:/.test(href))
    .map((href) => {
      const [target = '', anchor] = href.split('#');
      const path = target === '' ? document : relative(root, join(root, dirname(document), target));
      return { href, path, anchor };
    });
}

/** The anchors GitHub gives a markdown document's headings. */
function anchorsOf(path: string): Set<string> {
  const headings = [...read(path).matchAll(/^#{1,6} (.+)$/gm)].map((m) => m[1] as string);
  return new Set(
    headings.map((heading) =>
      heading
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\- _]/gu, '')
        .replace(/ /g, '-'),
    ),
  );
}

describe('the documents a newcomer reads', () => {
  test('every relative link of README, CONTRIBUTING and the decisions leads to a file, and to a heading of it', () => {
    assert.ok(relativeLinks('README.md').length >= 2, 'the README links to the project documents');
    for (const document of documents()) {
      for (const { href, path, anchor } of relativeLinks(document)) {
        const where = `${document}: ${href}`;
        assert.ok(!path.startsWith('..') && !path.startsWith('/'), `${where} leaves the repository`);
        assert.ok(statSync(join(root, path), { throwIfNoEntry: false }), `${where} does not exist`);
        if (anchor !== undefined && path.endsWith('.md')) {
          assert.ok(anchorsOf(path).has(anchor), `${where}: ${path} has no heading with that anchor`);
        }
      }
    }
  });

  test('the decisions index lists every file of docs/decisions/, and each file links back to it', () => {
    const listed = new Set(
      relativeLinks('docs/decisions.md')
        .map((link) => link.path)
        .filter((path) => path.startsWith(`${DECISIONS}/`)),
    );
    const topics = documents().filter((path) => path.startsWith(`${DECISIONS}/`));
    assert.ok(topics.length >= 10, topics.join(', '));
    assert.deepEqual([...listed].sort(), topics.sort());
    for (const topic of topics) {
      assert.ok(
        relativeLinks(topic).some((link) => link.path === 'docs/decisions.md'),
        `${topic} links to the index`,
      );
    }
  });
});
