import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type Harness, startServer } from '../helpers/harness.ts';
import { assertTryAgain, type Caller, callerOf, healthz, leftOut, readyz } from './outage-calls.ts';

const transports = ['rest', 'mcp'] as const;
const STORE_AWAY = /database is not answering/;

/**
 * Another process holding the embedded store's write lock (as a long write of another program on
 * the file would): SQLite's "database is away" that can be made for real. Resolves once it holds
 * the lock, with the function that lets it go.
 */
async function lockedByAnotherProcess(file: string): Promise<() => Promise<void>> {
  const script = `
    const { DatabaseSync } = require('node:sqlite');
    const db = new DatabaseSync(process.argv[1]);
    db.exec('BEGIN IMMEDIATE');
    process.stdout.write('locked\\n');
    process.stdin.on('end', () => { db.exec('ROLLBACK'); db.close(); process.exit(0); });
    process.stdin.resume();`;
  const child = spawn(process.execPath, ['-e', script, file], { stdio: ['pipe', 'pipe', 'inherit'] });
  const [chunk] = await once(child.stdout, 'data');
  assert.equal(String(chunk).trim(), 'locked');
  return async () => {
    child.stdin.end();
    if (child.exitCode === null) await once(child, 'exit');
  };
}

describe('the embedded store locked by another process', { skip: leftOut('sqlite') }, () => {
  let h: Harness;
  let calls: Caller;
  before(async () => {
    // Writes wait this long for the lock, then are answered.
    h = await startServer({ dialect: 'sqlite', env: { DATABASE_ACQUIRE_TIMEOUT_MS: '300' } });
    calls = callerOf(h.origin, h.alice.writeKey);
  });
  after(async () => {
    await calls?.close();
    await h?.close();
  });

  it('writes get 503 in the envelope with Retry-After, reads still answer; /readyz 503, /healthz 200; then recovers', async () => {
    for (const t of transports) assert.ok((await calls.listGuides(t)).ok, 'MCP connected before the lock');
    const release = await lockedByAnotherProcess(join(h.config.dataDir, 'creator-api.sqlite'));
    try {
      for (const t of transports) {
        const started = Date.now();
        assertTryAgain(await calls.createGuide(`Locked over ${t}`, t), STORE_AWAY);
        assert.ok(Date.now() - started < 3000, 'answered after the lock wait, not held');
        // WAL: reading needs no lock another process can hold.
        assert.ok((await calls.listGuides(t)).ok);
      }
      const ready = await readyz(h.origin);
      assert.equal(ready.status, 503);
      assert.equal(ready.body.dependencies.store.status, 'down');
      assert.match(ready.body.reason, /locked by another process/);
      assert.equal(await healthz(h.origin), 200);
    } finally {
      await release();
    }
    for (const t of transports) assert.ok((await calls.createGuide(`Free over ${t}`, t)).ok);
    assert.equal((await readyz(h.origin)).status, 200);
    const listed = await calls.listGuides('rest');
    assert.deepEqual(
      listed.body.guides.map((g: { name: string }) => g.name).sort(),
      ['Free over mcp', 'Free over rest'],
      'nothing of the refused writes was saved',
    );
  });
});
