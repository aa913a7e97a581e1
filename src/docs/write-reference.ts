import { readFileSync, writeFileSync } from 'node:fs';
import { createRegistry } from '../resources/index.ts';
import { withFindingCodes } from './finding-codes.ts';
import { renderReference } from './reference.ts';

const target = new URL('../../docs/reference.md', import.meta.url);
writeFileSync(target, renderReference(createRegistry()));
process.stdout.write(`wrote ${target.pathname}\n`);

// The playbook is written by hand, but for its list of finding codes, which comes from the rules.
const playbook = new URL('../../docs/authoring-playbook.md', import.meta.url);
const before = readFileSync(playbook, 'utf8');
const after = withFindingCodes(before);
if (after !== before) {
  writeFileSync(playbook, after);
  process.stdout.write(`wrote the finding codes of ${playbook.pathname}\n`);
}
