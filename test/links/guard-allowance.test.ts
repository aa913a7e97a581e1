import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { ManualClock } from '../../src/core/clock.ts';
import { LinkChecker } from '../../src/resources/links/link-checker.ts';
import { sourceFiles, srcDir as srcRoot } from '../helpers/sources.ts';

const linksFolder = 'resources/links/';
/** The only production files that may name the seams: where they are declared and passed down. */
const declaring = new Set([`${linksFolder}safe-fetch.ts`, `${linksFolder}link-checker.ts`]);

/**
 * The test-only seams open loopback ports and replace the socket opener. They are constructor
 * options and nothing else: no setting, no environment variable. These checks keep it that way.
 */
describe('the test-only allowance cannot be switched on by configuration', () => {
  it('no production file but the two declaring them names the test-only options', async () => {
    const offenders: string[] = [];
    for (const file of sourceFiles(srcRoot)) {
      const path = relative(srcRoot, file);
      if (declaring.has(path) || path.endsWith('.test.ts')) continue;
      const text = await readFile(file, 'utf8');
      if (/testOnlyLoopbackPorts|openSocket/.test(text)) offenders.push(path);
    }
    assert.deepEqual(offenders, []);
  });

  it('the link checker reads no environment variable', async () => {
    for (const file of sourceFiles(join(srcRoot, linksFolder))) {
      assert.doesNotMatch(await readFile(file, 'utf8'), /process\.env|process\.argv/, file);
    }
  });

  it('the allowance takes port numbers only', () => {
    const clock = new ManualClock('2026-11-23T10:00:00Z');
    for (const bad of [0, -1, 65_536, 80.5, Number.NaN]) {
      assert.throws(() => new LinkChecker({ clock, testOnlyLoopbackPorts: [bad] }), /port numbers/);
    }
  });
});
