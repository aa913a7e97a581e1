import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { sql } from 'kysely';
import pino from 'pino';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { ManualClock } from '../../src/core/clock.ts';
import { changeIdOf } from '../../src/core/history.ts';
import { KeyStore } from '../../src/core/keys.ts';
import { openStore, type Store } from '../../src/store.ts';
import { testDialects } from '../helpers/dialects.ts';
import { oldStoreWithGuide } from '../helpers/old-store.ts';

/** The migration that lays the history out anew (src/resources/history/lean.migration.ts). */
const LEAN = '0036-history-lean';

const GUIDE = 'gd_leanmigration0001';
const SPOT = 'spt_leanmigration001';
const MADE = 'spt_leanmigration002';

/**
 * A store whose history was written before the history's new layout (whole before-images, the
 * change named in a table of the file) keeps it: its changes are listed, filtered by record, and
 * undone after the migration as before it.
 */
for (const { dialect, skip } of await testDialects()) {
  describe(`the history's new layout keeps an existing history (${dialect})`, { skip }, () => {
    const clock = new ManualClock('2026-11-23T10:00:00Z');
    const cleanup: Array<() => Promise<void> | void> = [];
    after(async () => {
      for (const step of cleanup.reverse()) await step();
    });

    it('lists, filters and undoes the changes recorded before it', async () => {
      // The embedded store names them after their guide and place since 0040-history-guide-ids.
      const [UPDATED, CREATED] =
        dialect === 'sqlite'
          ? [changeIdOf(GUIDE, 1), changeIdOf(GUIDE, 2)]
          : ['chg_oldupdate000001', 'chg_oldcreate000001'];
      const { old, options, creatorId } = await oldStoreWithGuide(dialect, LEAN, GUIDE, clock, cleanup);
      const at = clock.now();
      const spot = (id: string, key: string, description: string) =>
        sql`insert into spots (id, guide_id, spot_key, name, description, order_key, created_at, updated_at)
          values (${id}, ${GUIDE}, ${key}, 'Bled', ${description}, 1, ${at}, ${at})`.execute(old.db);
      await spot(SPOT, 'bled', 'Before');
      const { rows } = await sql<Record<string, unknown>>`select * from spots where id = ${SPOT}`.execute(old.db);
      const image = JSON.stringify(rows[0]);
      // What the triggers wrote before: update_spot kept the whole spot, create_spot nothing.
      await sql`update spots set description = 'After' where id = ${SPOT}`.execute(old.db);
      await spot(MADE, 'bohinj', 'Made');
      await sql`insert into changes (id, guide_id, seq, at, operation, by_id) values
        ('chg_oldupdate000001', ${GUIDE}, 1, ${at}, 'update_spot', null),
        ('chg_oldcreate000001', ${GUIDE}, 2, ${at + 1}, 'create_spot', null)`.execute(old.db);
      await sql`insert into change_rows (change_id, tbl, row_key, kind, record_id, before, gone) values
        ('chg_oldupdate000001', 'spots', ${JSON.stringify({ id: SPOT })}, 'spot', ${SPOT}, ${image}, 0),
        ('chg_oldcreate000001', 'spots', ${JSON.stringify({ id: MADE })}, 'spot', ${MADE}, null, 0)`.execute(old.db);
      await old.close();

      const store: Store = await openStore(options);
      cleanup.push(() => store.close());
      const config = loadConfig({
        DATA_DIR: options.dataDir,
        LOG_LEVEL: 'silent',
        ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
      });
      const app = buildApp({ config, store, clock, logger: pino({ level: 'silent' }) });
      cleanup.push(() => app.close());
      const { key } = await new KeyStore(store.db, clock).create({
        creatorId,
        scope: 'write',
        publish: false,
      });
      const call = async (method: 'GET' | 'POST', url: string, payload?: unknown) => {
        const answer = await app.fastify.inject({
          method,
          url: `/api/v1${url}`,
          headers: { authorization: `Bearer ${key}` },
          payload: payload as never,
        });
        assert.equal(answer.statusCode, 200, answer.body);
        return answer.json();
      };

      const listed = await call('GET', `/guides/${GUIDE}/changes`);
      assert.deepEqual(
        listed.changes.map((c: { changeId: string; records: unknown }) => [c.changeId, c.records]),
        [
          [CREATED, [{ kind: 'spot', id: MADE }]],
          [UPDATED, [{ kind: 'spot', id: SPOT }]],
        ],
      );
      const filtered = await call('GET', `/guides/${GUIDE}/changes?recordId=${SPOT}`);
      assert.deepEqual(
        filtered.changes.map((c: { changeId: string }) => c.changeId),
        [UPDATED],
      );

      const undone = await call('POST', `/guides/${GUIDE}/changes/undo`, {
        changeIds: [UPDATED, CREATED],
      });
      const spots = await sql<{ id: string; description: string }>`
        select id, description from spots where guide_id = ${GUIDE}`.execute(store.db);
      assert.deepEqual(
        spots.rows.map((r) => ({ ...r })),
        [{ id: SPOT, description: 'Before' }],
      );
      // The undo is a change of the new layout, listed beside the old ones: undoing it is a redo.
      const after = await call('GET', `/guides/${GUIDE}/changes?limit=1`);
      assert.equal(after.changes[0].changeId, undone.changeId);
      await call('POST', `/guides/${GUIDE}/changes/undo`, { changeIds: [undone.changeId] });
      const redone = await sql<{ id: string; description: string }>`
        select id, description from spots where guide_id = ${GUIDE} order by spot_key`.execute(store.db);
      assert.deepEqual(
        redone.rows.map((r) => ({ ...r })),
        [
          { id: SPOT, description: 'After' },
          { id: MADE, description: 'Made' },
        ],
      );
    });
  });
}
