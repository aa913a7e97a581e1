import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Kysely } from 'kysely';
import { EmbeddedDialect } from '../../src/db/embedded-dialect.ts';
import { NodeSqliteAdapter } from '../../src/db/node-sqlite-adapter.ts';

interface Notes {
  notes: { id: number; text: string };
}

describe('EmbeddedDialect', () => {
  let dir: string;
  let db: Kysely<Notes>;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'embedded-dialect-'));
    db = new Kysely<Notes>({
      dialect: new EmbeddedDialect({ database: new NodeSqliteAdapter(join(dir, 'n.sqlite')) }),
    });
    await db.schema
      .createTable('notes')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('text', 'text')
      .execute();
    await db
      .insertInto('notes')
      .values([1, 2, 3, 4].map((id) => ({ id, text: `note ${id}` })))
      .execute();
  });
  after(async () => {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  test('writes a whole-number limit into the statement, so a new binding never has it prepared again', async () => {
    const query = db.selectFrom('notes').select('id').where('text', '!=', 'none').orderBy('id').limit(3);
    const compiled = query.compile();
    assert.match(compiled.sql, /limit 3$/);
    assert.deepEqual(compiled.parameters, ['none']);
    assert.deepEqual(
      (await query.execute()).map((r) => r.id),
      [1, 2, 3],
    );
  });

  test('leaves any other limit bound, as Kysely does', () => {
    // SQLite reads a negative limit as none.
    const compiled = db.selectFrom('notes').select('id').limit(-1).compile();
    assert.match(compiled.sql, /limit \?$/);
    assert.deepEqual(compiled.parameters, [-1]);
  });
});
