import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Principal } from '../../src/core/auth.ts';
import { inChange } from '../../src/core/history.ts';
import type { Resource } from '../../src/core/resource.ts';
import { trackedTables } from '../../src/db/history-triggers.ts';
import type { Database } from '../../src/db/tables.ts';
import { historyTables } from '../../src/resources/index.ts';
import { openStore } from '../../src/store.ts';

/**
 * The embedded store's triggers name their table's columns: a later migration that adds one gets
 * triggers that record it (they are dropped before migrations run and made again after), and which
 * tables are tracked is read from the schema.
 */

const notes: Migration = {
  async up(db) {
    await db.schema
      .createTable('later_notes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('guide_id', 'text', (c) => c.notNull().references('guides.id').onDelete('cascade'))
      .addColumn('text', 'text', (c) => c.notNull())
      .execute();
  },
};

const mood: Migration = {
  async up(db) {
    await db.schema.alterTable('later_notes').addColumn('mood', 'text').execute();
  },
};

function resourceWith(migrations: Record<string, Migration>): Resource {
  return {
    tag: { name: 'later-notes', description: 'Notes a later migration adds a column to' },
    operations: [],
    migrations,
  };
}

const principal: Principal = { keyId: 'key_test', creatorId: 'cr_test', scope: 'write', publish: false, role: 'owner' };

/** One write as invoke records it: the change opened, the write, the change closed, in one transaction. */
async function recorded(db: Kysely<Database>, guideId: string, write: (trx: Kysely<any>) => Promise<unknown>) {
  return inChange(db, 'sqlite', async (trx, change) => {
    await write(trx);
    await change.close({ operation: 'test_write', principal, at: 1, guideId });
    return change.id;
  });
}

describe('history triggers on the embedded store', () => {
  const dir = mkdtempSync(join(tmpdir(), 'history-triggers-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('record a column a later migration added, and track tables found in the schema', async () => {
    const first = await openStore({ dataDir: dir }, [resourceWith({ '9001-later-notes': notes })]);
    const guideId = 'gd_history0000000001';
    try {
      await first.db
        .insertInto('creators')
        .values({
          id: 'cr_test',
          email: 'a@example.com',
          slug: 'a',
          display_name: 'A',
          socials: '[]',
          created_at: 1,
          updated_at: 1,
        } as never)
        .execute();
      await first.db
        .insertInto('guides')
        .values({
          id: guideId,
          creator_id: 'cr_test',
          name: 'G',
          slug: 'g',
          store_tags: '[]',
          created_at: 1,
          updated_at: 1,
          revision: 1,
        } as never)
        .execute();
      await sql`insert into later_notes (id, guide_id, text) values ('n1', ${guideId}, 'first')`.execute(first.db);
      const tracked = await trackedTables(first.db, 'sqlite', historyTables());
      const names = tracked.map((t) => t.name);
      for (const table of ['guides', 'spots', 'chapter_members', 'route_spots', 'facility_spots', 'later_notes']) {
        assert.ok(names.includes(table), `${table} is tracked`);
      }
      for (const table of [
        'releases',
        'purchases',
        'link_checks',
        'preview_links',
        'changes',
        'change_rows',
        'api_keys',
      ]) {
        assert.equal(names.includes(table), false, `${table} is not guide content`);
      }
    } finally {
      await first.close();
    }

    const second = await openStore({ dataDir: dir }, [resourceWith({ '9001-later-notes': notes, '9002-mood': mood })]);
    try {
      const change = await recorded(second.db, guideId, (trx) =>
        sql`update later_notes set mood = 'calm' where id = 'n1'`.execute(trx),
      );
      const row = await second.db
        .selectFrom('change_rows')
        .select(['before', 'kind', 'record_id'])
        .where('change_id', '=', change)
        .executeTakeFirstOrThrow();
      assert.deepEqual(JSON.parse(row.before ?? 'null'), { mood: null }, 'the column the update changed, as it was');
      assert.equal(row.kind, 'later_notes');
      assert.equal(row.record_id, 'n1');
      const kept = await second.db
        .selectFrom('changes')
        .select(['seq', 'operation'])
        .where('id', '=', change)
        .execute();
      // Its place is the guide's revision, moved past the 1 it was made with (core/history.ts, changeIdOf).
      assert.deepEqual(
        kept.map((c) => ({ ...c })),
        [{ seq: 2, operation: 'test_write' }],
      );
      const unchanged = await recorded(second.db, guideId, (trx) =>
        sql`update later_notes set mood = 'calm' where id = 'n1'`.execute(trx),
      );
      const none = await second.db.selectFrom('changes').select('id').where('id', '=', unchanged).execute();
      assert.deepEqual(none, [], 'a write that changed no row is no change');
    } finally {
      await second.close();
    }
  });
});
