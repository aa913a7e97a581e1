import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, test } from 'node:test';
import { NodeSqliteAdapter } from '../../src/db/node-sqlite-adapter.ts';

describe('NodeSqliteAdapter.commitStamp', () => {
  let dir: string;
  let file: string;
  let adapter: NodeSqliteAdapter;
  let elsewhere: DatabaseSync;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'commit-stamp-'));
    file = join(dir, 'store.sqlite');
    adapter = new NodeSqliteAdapter(file);
    adapter.prepare('create table notes (id integer primary key, text text)').run([]);
    // Another connection, as another process (the admin command line, a second server) has.
    elsewhere = new DatabaseSync(file);
    elsewhere.exec('PRAGMA busy_timeout = 5000');
  });
  after(() => {
    elsewhere.close();
    adapter.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('stands still while nothing is committed, reads included', () => {
    const first = adapter.commitStamp();
    assert.equal(typeof first, 'string');
    adapter.prepare('select * from notes').all([]);
    elsewhere.prepare('select * from notes').all();
    assert.equal(adapter.commitStamp(), first);
  });

  test('moves with every commit, its own or another connection’s, and after a checkpoint', () => {
    const seen = new Set([adapter.commitStamp()]);
    adapter.prepare('insert into notes (text) values (?)').run(['mine']);
    seen.add(adapter.commitStamp());
    elsewhere.prepare('insert into notes (text) values (?)').run('theirs');
    seen.add(adapter.commitStamp());
    elsewhere.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    elsewhere.prepare('update notes set text = ? where text = ?').run('theirs again', 'theirs');
    seen.add(adapter.commitStamp());
    assert.equal(seen.size, 4, 'four states, four stamps');
  });

  test('is unknown while a transaction is open on the connection', () => {
    adapter.prepare('begin').run([]);
    try {
      assert.equal(adapter.commitStamp(), undefined);
    } finally {
      adapter.prepare('rollback').run([]);
    }
    assert.equal(typeof adapter.commitStamp(), 'string');
  });

  test('is unknown for a store without a write-ahead log', () => {
    const memory = new NodeSqliteAdapter(':memory:');
    try {
      assert.equal(memory.commitStamp(), undefined);
    } finally {
      memory.close();
    }
  });
});
