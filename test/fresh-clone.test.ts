import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';

const root = new URL('..', import.meta.url).pathname;
const run = promisify(execFile);

/** The drift test in its own process, as a clone runs it, with the specification looked for in `specDir`. */
async function driftTest(specDir: string, ci: boolean): Promise<{ code: number; out: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, SPEC_DIR: specDir, CI: ci ? 'true' : '' };
  delete env.NODE_TEST_CONTEXT; // the child reports as a top-level run, not to this runner
  try {
    const { stdout, stderr } = await run(process.execPath, ['--test', 'test/drift.test.ts'], { cwd: root, env });
    return { code: 0, out: stdout + stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

/** The project's own text files: what a clone carries (dependencies, data and results aside). */
function projectFiles(dir = root): string[] {
  const skip = new Set(['node_modules', '.git', 'data', 'results']);
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (skip.has(name)) return [];
    if (statSync(path).isDirectory()) return projectFiles(path);
    return /\.(ts|md|json)$/.test(name) ? [relative(root, path)] : [];
  });
}

describe('a fresh clone, without the specification beside it', () => {
  for (const ci of [false, true]) {
    test(`the drift tests skip with one note where the specification is missing${ci ? ', under CI=true too' : ''}`, async () => {
      const empty = mkdtempSync(join(tmpdir(), 'creator-api-no-spec-'));
      try {
        const { code, out } = await driftTest(empty, ci);
        assert.equal(code, 0, out);
        assert.match(out, /# no specification at \S+creator-api\.md \(set SPEC_DIR to compare against it\)/);
        assert.equal(out.match(/# no specification/g)?.length, 1, out);
        assert.match(out, /skipped 1\n/);
        assert.match(out, /fail 0\n/);
      } finally {
        rmSync(empty, { recursive: true, force: true });
      }
    });
  }

  test('nothing the project carries points at the specification or design notes outside it', () => {
    // Built from pieces, so that this file does not match itself.
    const outside = new RegExp(['shared/(spec/', '|design\\.md|style\\.md)|/work/', 'shared'].join(''));
    const pointing = projectFiles().filter((file) => outside.test(readFileSync(join(root, file), 'utf8')));
    assert.deepEqual(pointing, []);
  });
});
