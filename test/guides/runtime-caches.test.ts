import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import pino from 'pino';
import { type App, buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { openStore, type Store } from '../../src/store.ts';
import { assertOk } from '../helpers/answers.ts';
import { apiFor } from '../helpers/api.ts';
import { freshPostgresSchema, POSTGRES_URL, testDialects } from '../helpers/dialects.ts';
import { type Harness, startServer } from '../helpers/harness.ts';
import { openPage, putOnSale, saleGuide } from '../helpers/sale-guide.ts';

/** Both apps answer for one public address, so that nothing but the store tells their pages apart. */
const PUBLIC_URL = 'https://guides.example';

/** The schema a PostgreSQL store's address puts first on the search path. */
function schemaOf(databaseUrl: string): string {
  const schema = /search_path=(\w+)/.exec(new URL(databaseUrl).searchParams.get('options') ?? '')?.[1];
  assert.ok(schema, `a schema in ${databaseUrl}`);
  return schema;
}

/**
 * Every row of one PostgreSQL schema into another migrated alike (its migration records aside),
 * foreign keys unchecked while the tables fill in whatever order; identity columns carry on.
 */
async function copyRows(from: string, to: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      `select table_name as name from information_schema.tables
       where table_schema = $1 and table_type = 'BASE TABLE' and table_name not like 'kysely_%'`,
      [from],
    );
    await client.query('begin');
    await client.query('set local session_replication_role = replica');
    await client.query(`truncate ${rows.map((t) => `${to}."${t.name}"`).join(', ')}`);
    for (const { name } of rows) await client.query(`insert into ${to}."${name}" select * from ${from}."${name}"`);
    // Identity columns go on from the copied rows, as a restored backup's do.
    const identities = await client.query<{ tbl: string; col: string }>(
      `select table_name as tbl, column_name as col from information_schema.columns
       where table_schema = $1 and is_identity = 'YES'`,
      [to],
    );
    for (const { tbl, col } of identities.rows) {
      await client.query(
        `select setval(pg_get_serial_sequence('${to}."${tbl}"', '${col}'), coalesce(max("${col}"), 0) + 1, false) from ${to}."${tbl}"`,
      );
    }
    await client.query('commit');
  } finally {
    await client.end();
  }
}

/**
 * Caches belong to the app that buildApp made, never to a module: two apps in one process, each on
 * its own copy of one store (a backup restored beside the original, a staging copy), hold the same
 * guide at the same revision and the same release number with other contents. Each must answer
 * from its own store; caches shared by the process would serve one app's view or page from the other.
 */
for (const { dialect, skip } of await testDialects()) {
  describe(`each app keeps its own caches (${dialect})`, { skip }, () => {
    let h: Harness;
    let copyDir: string;
    let copySchema: Awaited<ReturnType<typeof freshPostgresSchema>> | undefined;
    let copy: Store;
    let other: App;
    let otherOrigin: string;
    let productId: string;
    let salesPath: string;

    before(async () => {
      h = await startServer({ dialect, env: { PUBLIC_URL } });
      const g = await saleGuide(h, apiFor(h, 'rest', h.alice.writeKey), 'Copied lakes');
      await putOnSale(h, g.productId);
      productId = g.productId;
      salesPath = new URL(g.salesPageUrl).pathname;
      // On sale, its first release rendered by the first app before the copy is made.
      assert.equal((await openPage(h.origin + salesPath)).status, 200);

      copyDir = mkdtempSync(join(tmpdir(), 'creator-api-copy-'));
      const media = join(h.config.dataDir, 'media');
      if (existsSync(media)) cpSync(media, join(copyDir, 'media'), { recursive: true });
      if (dialect === 'sqlite') {
        await sql`vacuum into ${sql.lit(join(copyDir, 'creator-api.sqlite'))}`.execute(h.store.db);
      } else {
        copySchema = await freshPostgresSchema();
      }
      copy = await openStore({ databaseUrl: copySchema?.url, dataDir: copyDir });
      if (copySchema) await copyRows(schemaOf(h.config.databaseUrl as string), schemaOf(copySchema.url));
      const config = loadConfig({
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'silent',
        DATA_DIR: copyDir,
        PUBLIC_URL,
        ...(copySchema && { DATABASE_URL: copySchema.url }),
      });
      other = buildApp({ config, store: copy, clock: h.clock, logger: pino({ level: 'silent' }) });
      otherOrigin = await other.listen('127.0.0.1', 0);
    });
    after(async () => {
      await other?.close();
      await copy?.close();
      await copySchema?.drop();
      if (copyDir) rmSync(copyDir, { recursive: true, force: true });
      await h?.close();
    });

    /** Alice's calls with `key` to one of the two apps. */
    const on = (app: 'first' | 'copy', key: string) =>
      apiFor(app === 'first' ? h : { ...h, app: other, baseUrl: `${otherOrigin}/api/v1` }, 'rest', key);

    /** The guide's revision in each store. */
    const revisions = async () =>
      Promise.all(
        [h.store, copy].map(async (store) =>
          Number(
            (
              await store.db
                .selectFrom('guides')
                .select('revision')
                .where('id', '=', productId)
                .executeTakeFirstOrThrow()
            ).revision,
          ),
        ),
      );

    it("a guide at the same revision in both stores: each app's record shows its own store's write", async () => {
      for (const app of ['first', 'copy'] as const) {
        assertOk(await on(app, h.alice.writeKey).call('update_guide', { productId, headline: `Told by the ${app}` }));
      }
      const [first, copied] = await revisions();
      assert.equal(first, copied, 'the same guide at the same revision in both stores');
      for (let round = 0; round < 2; round++) {
        for (const app of ['first', 'copy'] as const) {
          const guide = await on(app, h.alice.readKey).call('get_guide', { productId });
          assertOk(guide);
          assert.equal(guide.body.headline, `Told by the ${app}`, `round ${round}: the ${app} app's own store`);
        }
      }
    });

    it("the same release number in both stores: each app's buyers' page shows its own store's release", async () => {
      for (const app of ['first', 'copy'] as const) {
        const writer = on(app, h.alice.writeKey);
        const { updatedAt, ...content } = (await writer.call('get_sales_page', { productId })).body.draft;
        assertOk(
          await writer.call('save_sales_page_draft', {
            ...content,
            productId,
            headline: `Lakes as the ${app} tells them`,
            expectedUpdatedAt: updatedAt,
          }),
        );
        const published = await on(app, h.alice.publishKey).call('publish_changes', { productId });
        assertOk(published);
        assert.equal(published.body.release.number, 2, 'the same release number in both stores');
      }
      for (let round = 0; round < 2; round++) {
        for (const [app, origin] of [
          ['first', h.origin],
          ['copy', otherOrigin],
        ] as const) {
          const page = await openPage(origin + salesPath);
          assert.equal(page.status, 200);
          const headline = /<h1>([^<]*)<\/h1>/.exec(page.text)?.[1];
          assert.equal(headline, `Lakes as the ${app} tells them`, `round ${round}: the ${app} app's own release`);
        }
      }
    });
  });
}
