import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { openStore, type Store } from '../../src/store.ts';
import { freshPostgresSchema, POSTGRES_URL, testDialects } from '../helpers/dialects.ts';

/** Longer than a readiness check takes on a busy machine. */
const WAITED_MS = 10_000;

const postgres = (await testDialects()).find((d) => d.dialect === 'postgres');

/**
 * Another store (or anything else) changing its own schema in the same database: this store's
 * start and readiness checks look at its own schema only, so a neighbour's renames, drops and
 * new schemas can neither fail them nor slow them.
 */
describe('a PostgreSQL store beside other schemas of its database', {
  skip: postgres?.skip ?? 'no postgres leg',
}, () => {
  let store: Store;
  let dir: string;
  let own: Awaited<ReturnType<typeof freshPostgresSchema>>;
  let neighbour: pg.Client;
  const neighbourSchema = `n_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'schema-neighbours-'));
    own = await freshPostgresSchema();
    store = await openStore({ dataDir: dir, databaseUrl: own.url });
    neighbour = new pg.Client({ connectionString: POSTGRES_URL });
    await neighbour.connect();
  });
  after(async () => {
    await neighbour?.query(`drop schema if exists ${neighbourSchema} cascade`).catch(() => {});
    await neighbour?.end();
    await store?.close();
    await own?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stays ready while a neighbour renames, drops and recreates its tables and its schema', async () => {
    // Both sides go on until each has done enough; the churn is bounded by the asking, for every
    // round leaves dead rows in the catalog the other test files read too.
    const ASKED = 40;
    const ROUNDS = 3;
    let asked = 0;
    let churned = 0;
    const churn = (async () => {
      for (; asked < ASKED || churned < ROUNDS; churned++) {
        await neighbour.query(`create schema ${neighbourSchema}`);
        await neighbour.query(`create table ${neighbourSchema}.change_rows (id serial primary key, kind text)`);
        for (let i = 0; i < 5; i++) {
          await neighbour.query(`alter table ${neighbourSchema}.change_rows rename column id to ord`);
          await neighbour.query(`alter table ${neighbourSchema}.change_rows rename column ord to id`);
        }
        await neighbour.query(`drop schema ${neighbourSchema} cascade`);
      }
    })();
    const answers = [];
    for (; asked < ASKED || churned < ROUNDS; asked++) {
      answers.push(await store.readiness().catch((err: Error) => ({ ready: false, reason: err.message })));
    }
    await churn;
    assert.deepEqual(
      answers.filter((a) => !a.ready),
      [],
    );
  });

  // The neighbour's change is held open: a store that looked at the neighbour's tables would wait
  // on its lock and, once it commits, find the column or schema it had listed gone.
  for (const [what, change] of [
    ['renames a column', `alter table ${neighbourSchema}.change_rows rename column id to ord`],
    ['drops its schema', `drop schema ${neighbourSchema} cascade`],
  ] as const) {
    it(`answers ready at once while a neighbour ${what}, and after`, async () => {
      await neighbour.query(`create schema ${neighbourSchema}`);
      await neighbour.query(`create table ${neighbourSchema}.change_rows (id serial primary key, kind text)`);
      await neighbour.query('begin');
      let committed = false;
      try {
        await neighbour.query(change);
        const asked = store.readiness();
        const first = await Promise.race([asked, sleep(WAITED_MS).then(() => 'still waiting' as const)]);
        assert.deepEqual(first, { ready: true }, 'answered while the neighbour’s change is open');
        await neighbour.query('commit');
        committed = true;
        assert.deepEqual(await store.readiness(), { ready: true });
      } finally {
        if (!committed) await neighbour.query('rollback');
        await neighbour.query(`drop schema if exists ${neighbourSchema} cascade`);
      }
    });
  }

  it('lists only its own schema’s tables, with the columns and sequences they have', async () => {
    await neighbour.query(`create schema if not exists ${neighbourSchema}`);
    await neighbour.query(`create table if not exists ${neighbourSchema}.stranger (id serial primary key)`);
    const tables = await store.db.introspection.getTables();
    const schemas = new Set(tables.map((t) => t.schema));
    assert.deepEqual([...schemas], [own.schema]);
    assert.ok(!tables.some((t) => t.name === 'stranger'));
    assert.ok(!tables.some((t) => t.name === 'kysely_migration'), 'the migrator’s tables only when asked');
    const withInternal = await store.db.introspection.getTables({ withInternalKyselyTables: true });
    const migrations = withInternal.find((t) => t.name === 'kysely_migration');
    assert.deepEqual(
      migrations?.columns.map((c) => [c.name, c.isNullable]),
      [
        ['name', false],
        ['timestamp', false],
      ],
    );
    const guides = tables.find((t) => t.name === 'guides');
    assert.equal(guides?.isView, false);
    assert.ok(guides?.columns.some((c) => c.name === 'id'));
    await neighbour.query(
      `create table ${own.schema}.numbered (a serial, b int generated by default as identity, c int default 7, d text)`,
    );
    const numbered = (await store.db.introspection.getTables()).find((t) => t.name === 'numbered');
    assert.deepEqual(
      numbered?.columns.map((c) => [c.name, c.isAutoIncrementing, c.hasDefaultValue]),
      [
        ['a', true, true],
        ['b', true, false],
        ['c', false, true],
        ['d', false, false],
      ],
    );
  });
});
