import assert from 'node:assert/strict';
import { closeSync, existsSync, mkdtempSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import type { Store } from '../../src/db/store-interface.ts';
import { WAL_KEPT_BYTES } from '../../src/db/wal-checkpointer.ts';
import { openStore } from '../../src/store.ts';

/** The log's last frame and how far it was copied back, from the WAL-index (https://www.sqlite.org/walformat.html). */
function walIndex(file: string): { lastFrame: number; copiedBack: number } {
  const header = Buffer.alloc(100);
  const fd = openSync(`${file}-shm`, 'r');
  try {
    readSync(fd, header, 0, 100, 0);
  } finally {
    closeSync(fd);
  }
  return { lastFrame: header.readUInt32LE(16), copiedBack: header.readUInt32LE(96) };
}

async function until(what: string, done: () => boolean, withinMs = 5000): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`not within ${withinMs} ms: ${what}`);
    await sleep(25);
  }
}

describe('the embedded store checkpoints on a thread of its own', () => {
  let dataDir: string;
  let file: string;
  let store: Store;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'wal-checkpointer-'));
    file = join(dataDir, 'creator-api.sqlite');
    store = await openStore({ dataDir });
    await sql`create table notes (id integer primary key, body blob)`.execute(store.db);
  });
  after(async () => {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('what commits append is copied back into the file without a commit doing it', async () => {
    const before = walIndex(file);
    // Fewer pages than a commit's own checkpoint would ever wait for (SQLite's default is 1,000).
    for (let i = 0; i < 100; i++) await sql`insert into notes (body) values (${Buffer.alloc(100)})`.execute(store.db);
    const written = walIndex(file);
    assert.notEqual(written.lastFrame, before.lastFrame, 'the writes went to the log');
    await until('the log is copied back', () => {
      const now = walIndex(file);
      return now.lastFrame > 0 && now.copiedBack === now.lastFrame;
    });
  });

  test('a log grown past its size under writes is cut back to it, not left to grow', async () => {
    // 200 KB a write: half as much again as the log is kept to, its size watched after each one.
    const writes = Math.ceil((1.5 * WAL_KEPT_BYTES) / 200_000);
    let largest = 0;
    for (let i = 0; i < writes; i++) {
      await sql`insert into notes (body) values (${Buffer.alloc(200_000)})`.execute(store.db);
      largest = Math.max(largest, statSync(`${file}-wal`).size);
    }
    assert.ok(largest > WAL_KEPT_BYTES, `the writes grew the log past its size (to ${largest} bytes)`);
    await until('the log is cut back', () => statSync(`${file}-wal`).size <= WAL_KEPT_BYTES, 10_000);
    const rows = await sql<{ n: number }>`select count(*) as n from notes`.execute(store.db);
    assert.equal(Number(rows.rows[0]?.n), 100 + writes, 'every write is in the file');
  });

  test('closing the store closes the thread’s connection too (the last one out removes the log)', async () => {
    await store.close();
    assert.equal(existsSync(`${file}-wal`), false);
    store = await openStore({ dataDir });
    const rows = await sql<{ n: number }>`select count(*) as n from notes`.execute(store.db);
    assert.equal(Number(rows.rows[0]?.n), 100 + Math.ceil((1.5 * WAL_KEPT_BYTES) / 200_000));
  });
});
