import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { errorCatalogue } from '../../src/core/errors.ts';
import { PLAYBOOK_BEGIN, PLAYBOOK_END, withFindingCodes } from '../../src/docs/finding-codes.ts';
import { renderReference } from '../../src/docs/reference.ts';
import { createRegistry } from '../../src/resources/index.ts';
import { findingCodes, readinessRules } from '../../src/resources/publishing/index.ts';

const playbook = readFileSync(new URL('../../docs/authoring-playbook.md', import.meta.url), 'utf8');
const reference = readFileSync(new URL('../../docs/reference.md', import.meta.url), 'utf8');

/** The text from a heading to the next heading of its level or above. */
function sectionOf(text: string, heading: string): string {
  const start = text.indexOf(heading);
  assert.ok(start >= 0, `${heading} is in the text`);
  const level = heading.match(/^#+/)?.[0] ?? '#';
  const rest = text.slice(start + heading.length);
  const next = rest.search(new RegExp(`\\n#{1,${level.length}} `));
  return next < 0 ? rest : rest.slice(0, next);
}

/** Backticked words written like a code (lower case with an underscore). */
const codeLike = (text: string) => [...text.matchAll(/`([a-z]+(?:_[a-z]+)+)`/g)].map((m) => m[1] as string);

describe('the lists of finding codes come from the rules table', () => {
  it('every code has one rule, with a when and a clears phrase', () => {
    assert.equal(new Set(findingCodes).size, readinessRules.length, 'each code once');
    for (const rule of readinessRules) {
      assert.match(rule.code, /^[a-z]+(_[a-z]+)+$/);
      assert.ok(rule.when.length > 10 && !rule.when.endsWith('.'), `${rule.code}: when is a phrase`);
      assert.ok(rule.clears.length > 10 && !rule.clears.endsWith('.'), `${rule.code}: clears is a phrase`);
    }
  });

  it("the playbook's list is what the rules write (run `npm run docs` after changing a rule)", () => {
    assert.equal(playbook, withFindingCodes(playbook));
  });

  it('the playbook names every code, and in its publish section no code that does not exist', () => {
    const block = playbook.slice(playbook.indexOf(PLAYBOOK_BEGIN), playbook.indexOf(PLAYBOOK_END));
    const listed = [...block.matchAll(/^ {2}- `([a-z_]+)`:/gm)].map((m) => m[1]);
    assert.deepEqual(listed.toSorted(), [...findingCodes].sort());
    // Whatever else the section says, a code-like word in it is a code, an operation, an error or a value.
    const known = new Set<string>([
      ...findingCodes,
      'not_live',
      ...createRegistry().operations.map((op) => op.name),
      ...Object.keys(errorCatalogue),
      'view_from_spot',
    ]);
    const unknown = codeLike(sectionOf(playbook, '### 12. Check, then publish')).filter((word) => !known.has(word));
    assert.deepEqual(unknown, [], 'the playbook names codes no rule has');
  });

  it('the reference lists every code once and no other', () => {
    assert.equal(reference, renderReference(createRegistry()));
    const table = sectionOf(reference, '## Readiness findings');
    const rows = [...table.matchAll(/^\| `([a-z_]+)` \| (blocking|warning) \|/gm)].map((m) => `${m[1]} ${m[2]}`);
    assert.deepEqual(
      rows,
      readinessRules.map((rule) => `${rule.code} ${rule.severity}`),
    );
  });

  it('a playbook without the markers is refused rather than written over', () => {
    assert.throws(() => withFindingCodes('# A playbook that lost its list'), /markers/);
  });
});
