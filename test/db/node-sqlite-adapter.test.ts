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

describe('NodeSqliteAdapter, statements run past Kysely', () => {
  let dir: string;
  let adapter: NodeSqliteAdapter;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'adapter-direct-'));
    adapter = new NodeSqliteAdapter(join(dir, 'store.sqlite'));
    adapter.prepare('create table notes (id integer primary key, text text)').run([]);
  });
  after(() => {
    adapter.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('runs a write inside the open transaction and answers the rows it changed; refuses one outside', () => {
    assert.throws(() => adapter.runInTransaction('insert into notes (text) values (?)', ['loose']), /no transaction/);
    adapter.prepare('begin immediate').run([]);
    assert.equal(adapter.runInTransaction('insert into notes (text) values (?), (?)', ['a', 'b']), 2);
    assert.equal(adapter.runInTransaction('delete from notes where text = ?', ['nothing']), 0);
    adapter.prepare('rollback').run([]);
    assert.deepEqual(adapter.prepare('select text from notes').all([]), []);
  });

  test('keeps a page cache larger than SQLite’s default of 2,000 KiB', () => {
    const [{ cache_size: size }] = adapter.prepare('pragma cache_size').all([]) as [{ cache_size: number }];
    assert.ok(size < -2000, `cache_size ${size}: negative is KiB, and more than 2,000 of them`);
  });
});
