import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { startService } from './service.ts';

const RECORDER = new URL('./record-modules.ts', import.meta.url).pathname;

/**
 * `node src/main.ts` with these settings: `whileUp` sees its banner and address; once stopped,
 * every module the process loaded (their URLs).
 */
export async function serviceLoading(
  env: Record<string, string>,
  whileUp: (banner: string, base: string) => Promise<void> = async () => {},
): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'creator-api-loading-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const seenFile = join(dir, 'modules.txt');
  const service = await startService(join(dir, 'data'), {
    ...env,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${RECORDER}`.trim(),
    MODULES_SEEN_FILE: seenFile,
  });
  try {
    await whileUp(service.stdout(), service.base);
  } finally {
    service.child.kill('SIGTERM');
    assert.equal(await service.exited, 0, service.output());
  }
  return readFileSync(seenFile, 'utf8').split('\n');
}

/** Which of these parts of paths some loaded module's URL holds. */
export const loaded = (modules: string[], parts: string[]) => parts.filter((p) => modules.some((m) => m.includes(p)));
