import { writeFileSync } from 'node:fs';
import { createRegistry } from '../resources/index.ts';
import { renderReference } from './reference.ts';

const target = new URL('../../docs/reference.md', import.meta.url);
writeFileSync(target, renderReference(createRegistry()));
process.stdout.write(`wrote ${target.pathname}\n`);
