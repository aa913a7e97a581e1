import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { CompiledQuery, type Kysely, sql } from 'kysely';
import { loadConfig } from '../../src/config.ts';
import type { Database } from '../../src/db/tables.ts';
import { createStores } from '../../src/resources/index.ts';
import { pruneRetention, servedFileQuery, sweepOrphanFilesAlone } from '../../src/resources/media/index.ts';
import { assertOk } from '../helpers/answers.ts';
import { type Api, apiFor, transports, useServer } from '../helpers/api.ts';
import { testSetups } from '../helpers/blob-stores.ts';
import { newGuide } from '../helpers/fixtures.ts';
import type { Harness } from '../helpers/harness.ts';
import { flat } from '../helpers/images.ts';
import { openPage, photo, putOnSale, saleGuide } from '../helpers/sale-guide.ts';

/**
 * Retention (docs/decisions/history.md, Retention): the sweep removes releases past RELEASES_KEPT
 * (never the live one) and history past HISTORY_KEPT_DAYS, then the files nothing kept names;
 * /media serves only what the live release or a working copy names.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/** One sweep as the schedule runs it (retention first), with every file already old enough to go. */
async function sweep(h: Harness) {
  const stores = createStores()({ db: h.store.db, clock: h.clock, dialect: h.store.dialect });
  const result = await sweepOrphanFilesAlone(h.store, h.blobs, Date.now() + 60_000, () =>
    pruneRetention(stores, h.config.retention, h.clock.now()),
  );
  assert.ok('removed' in result, JSON.stringify(result));
  return result;
}

/** A photo's files: their served addresses and blob keys. */
async function filesOf(api: Api, productId: string, mediaId: string): Promise<{ urls: string[]; keys: string[] }> {
  const listed = await api.call('list_media', { productId });
  assertOk(listed);
  const urls = Object.values(
    listed.body.media.find((m: { mediaId: string }) => m.mediaId === mediaId).urls as Record<string, string>,
  );
  return { urls, keys: urls.map((url) => (/\/media\/([A-Za-z0-9_-]+)\./.exec(url) as RegExpExecArray)[1] as string) };
}

/** Each address's status and a hash of its bytes. */
async function served(urls: readonly string[]): Promise<string[]> {
  return Promise.all(
    urls.map(async (url) => {
      const res = await fetch(url);
      return `${res.status} ${createHash('sha256')
        .update(Buffer.from(await res.arrayBuffer()))
        .digest('hex')}`;
    }),
  );
}

async function stored(h: Harness, keys: readonly string[]): Promise<boolean[]> {
  return Promise.all(keys.map(async (key) => (await h.blobs.get(key)) !== undefined));
}

async function releaseNumbers(h: Harness, productId: string): Promise<number[]> {
  const rows = await h.store.db
    .selectFrom('releases')
    .select('number')
    .where('guide_id', '=', productId)
    .orderBy('number')
    .execute();
  return rows.map((r) => Number(r.number));
}

for (const { dialect, blobStore, skip, name } of await testSetups()) {
  describe(`retention of releases, history and their files (${name})`, { skip }, () => {
    const suite = useServer({ dialect, blobStore, env: { RELEASES_KEPT: '1', HISTORY_KEPT_DAYS: '30' } });

    it('a release past RELEASES_KEPT goes at the sweep, never the live one; files only it and old history named go after', async () => {
      const h = suite.h;
      const api = suite.apis.rest;
      const g = await saleGuide(h, api, 'Lakes kept for a while');
      await putOnSale(h, g.productId);
      const publisher = apiFor(h, 'rest', h.alice.publishKey);
      const hero = await filesOf(api, g.productId, g.hero);
      assert.deepEqual(await stored(h, hero.keys), [true, true, true, true]);

      assertOk(await api.call('delete_media', { mediaId: g.hero }));
      assertOk(await publisher.call('publish_changes', { productId: g.productId }));
      await publisher.close();
      assert.deepEqual(await releaseNumbers(h, g.productId), [1, 2]);
      const livePaths = [
        ...new Set(Array.from((await openPage(g.salesPageUrl)).text.matchAll(/\/media\/[\w-]+\.[a-z]+/g), (m) => m[0])),
      ];
      assert.ok(livePaths.length > 0);
      const liveUrls = livePaths.map((path) => `${h.origin}${path}`);
      const live = await served(liveUrls);
      assert.ok(
        live.every((s) => s.startsWith('200 ')),
        JSON.stringify(live),
      );

      const first = await sweep(h);
      assert.ok((first.pruned?.releases ?? 0) >= 1, JSON.stringify(first.pruned));
      assert.deepEqual(await releaseNumbers(h, g.productId), [2], 'release 1 went; the live release stays');
      const rows = await h.store.db.selectFrom('release_files').select('release_id').distinct().execute();
      const releaseIds = (await h.store.db.selectFrom('releases').select('id').execute()).map((r) => r.id);
      assert.ok(
        rows.every((r) => releaseIds.includes(r.release_id)),
        'release 1 took its file records along',
      );
      assert.deepEqual(
        await stored(h, hero.keys),
        [true, true, true, true],
        'the delete is in the history: its before-image still names the files',
      );
      assert.ok(
        (await served(hero.urls)).every((s) => s.startsWith('404 ')),
        'not served: nothing live names them',
      );

      h.clock.advance(31 * DAY_MS);
      const second = await sweep(h);
      assert.ok((second.pruned?.changes ?? 0) >= 1, JSON.stringify(second.pruned));
      assert.deepEqual(await stored(h, hero.keys), [false, false, false, false], 'nothing kept names them now');
      assert.ok(hero.keys.every((key) => second.removed.includes(key)));
      assert.deepEqual(await releaseNumbers(h, g.productId), [2], 'the live release is never pruned');
      assert.deepEqual(await served(liveUrls), live, 'every file buyers see is still served');
    });

    for (const t of transports) {
      it(`${t}: history older than HISTORY_KEPT_DAYS goes at the sweep; newer entries stay`, async () => {
        const h = suite.h;
        const api = suite.apis[t];
        const productId = await newGuide(api, `Old and new history over ${t}`);
        assertOk(await api.call('update_guide', { productId, name: 'Renamed long ago' }));
        const old = (await api.call('list_changes', { productId, limit: 1 })).body.changes[0].changeId as string;
        h.clock.advance(20 * DAY_MS);
        assertOk(await api.call('update_guide', { productId, name: 'Renamed lately' }));
        const recent = (await api.call('list_changes', { productId, limit: 1 })).body.changes[0].changeId as string;
        h.clock.advance(15 * DAY_MS);

        const result = await sweep(h);
        assert.ok((result.pruned?.changes ?? 0) >= 1);
        const listed = await api.call('list_changes', { productId });
        assertOk(listed);
        const ids = (listed.body.changes as { changeId: string }[]).map((c) => c.changeId);
        assert.ok(ids.includes(recent), '15 days old: kept');
        assert.ok(!ids.includes(old), '35 days old: removed');
        const rows = await h.store.db.selectFrom('change_rows').select('ord').where('change_id', '=', old).execute();
        assert.deepEqual(rows, [], 'its rows went with it');
      });

      it(`${t}: a file only a kept before-image names survives the sweep, so a redo long after shows the photo whole`, async () => {
        const h = suite.h;
        const api = suite.apis[t];
        const productId = await newGuide(api, `Undo and redo over ${t}`);
        const mediaId = await photo(h, productId, { credit: 'Ana Novak', colour: '#335577' });
        const files = await filesOf(api, productId, mediaId);
        const before = await served(files.urls);
        assert.ok(before.every((s) => s.startsWith('200 ')));
        const upload = (await api.call('list_changes', { productId, limit: 1 })).body.changes[0].changeId as string;
        const undone = await api.call('undo_changes', { productId, changeIds: [upload] });
        assertOk(undone);
        assert.ok(
          (await served(files.urls)).every((s) => s.startsWith('404 ')),
          'no working copy names them now',
        );

        await sweep(h);
        assert.deepEqual(await stored(h, files.keys), [true, true, true, true], "the undo's before-image names them");

        const undo = (await api.call('list_changes', { productId, limit: 1 })).body.changes[0].changeId as string;
        assertOk(await api.call('undo_changes', { productId, changeIds: [undo] }));
        assert.deepEqual(await served(files.urls), before, 'the redo brought the photo back with its files');
      });
    }

    it('reads the before-images page by page: one behind 2,500 others still keeps its files', async () => {
      const h = suite.h;
      const api = suite.apis.rest;
      const productId = await newGuide(api, 'Behind many pages');
      const mediaId = await photo(h, productId, { credit: 'Nika Zupan' });
      const files = await filesOf(api, productId, mediaId);
      const upload = (await api.call('list_changes', { productId, limit: 1 })).body.changes[0].changeId as string;
      assertOk(await api.call('undo_changes', { productId, changeIds: [upload] }));
      // Before-images of another guide naming no file, in changes whose ids sort before the undo's:
      // the undo's own before-image is read on the third page.
      const other = await newGuide(api, 'Many small changes');
      const at = h.clock.now();
      const fillers = [0, 1, 2].map((n) => `chg_000000000filler${String(n).padStart(9, '0')}`);
      await h.store.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('changes')
          .values(
            fillers.map((id, n) => ({
              id,
              guide_id: other,
              seq: 1000 + n,
              at,
              operation: 'update_guide',
              by_id: null,
            })),
          )
          .execute();
        for (const change of fillers) {
          const rows = Array.from({ length: 850 }, (_, n) => ({
            change_id: change,
            tbl: 'guides',
            row_key: JSON.stringify({ id: `${other}_${n}` }),
            ord: n + 1,
            kind: 'guide',
            record_id: other,
            before: JSON.stringify({ name: `Name ${n}` }),
            gone: 0,
          }));
          for (let i = 0; i < rows.length; i += 200)
            await trx
              .insertInto('change_rows')
              .values(rows.slice(i, i + 200))
              .execute();
        }
      });

      await sweep(h);
      assert.deepEqual(
        await stored(h, files.keys),
        [true, true, true, true],
        'named by a before-image on a later page',
      );
    });

    it('/media refuses a stored file nothing live names and serves one a working copy names', async () => {
      const h = suite.h;
      const productId = await newGuide(suite.apis.rest, 'Served or not');
      const mediaId = await photo(h, productId, { credit: 'Marko Kos' });
      const named = await filesOf(suite.apis.rest, productId, mediaId);
      assert.ok((await served(named.urls)).every((s) => s.startsWith('200 ')));
      // A file in the store that no row names: what a crash leaves, or what only an old release or the history keeps.
      const stray = await h.blobs.put('strayRetention01', await flat(64, 64).jpeg().toBuffer(), 'image/jpeg');
      const res = await fetch(`${h.origin}/media/${stray.key}.jpg`);
      assert.equal(res.status, 404);
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'not_found');
      assert.ok(await h.blobs.get(stray.key), 'stored all the same');
    });

    it('the lookup /media makes is indexed: no whole table is read, however many photos there are', async () => {
      const h = suite.h;
      const compiled = servedFileQuery(h.store.db).compile();
      const explain = (db: Kysely<Database>, prefix: string) =>
        db.executeQuery<Record<string, string>>(
          CompiledQuery.raw(`${prefix} ${compiled.sql}`, [...compiled.parameters]),
        );
      const plan =
        dialect === 'postgres'
          ? await h.store.db.transaction().execute(async (trx) => {
              // Tables this small are cheaper to scan; forbid it, and any scan left is one no index could spare.
              await sql`set local enable_seqscan = off`.execute(trx);
              return (await explain(trx, 'explain')).rows.map((r) => r['QUERY PLAN']).join('\n');
            })
          : (await explain(h.store.db, 'explain query plan')).rows.map((r) => r.detail).join('\n');
      assert.doesNotMatch(plan, /Seq Scan on (media|guides|release_files|releases)\b/, plan);
      assert.doesNotMatch(plan, /^SCAN (media|guides|release_files|releases)\b/m, plan);
      assert.match(plan, /media_file_original/, plan);
      assert.match(plan, /guides_thumbnail_url/, plan);
      assert.match(plan, /release_files_by_key/, plan);
    });
  });
}

describe('retention settings', () => {
  it('keep every release and 90 days of history by default; refuse none kept', () => {
    assert.deepEqual(loadConfig({}).retention, { releasesKept: undefined, historyDays: 90 });
    assert.deepEqual(loadConfig({ RELEASES_KEPT: '3', HISTORY_KEPT_DAYS: '7' }).retention, {
      releasesKept: 3,
      historyDays: 7,
    });
    assert.throws(() => loadConfig({ RELEASES_KEPT: '0' }), /RELEASES_KEPT/);
    assert.throws(() => loadConfig({ HISTORY_KEPT_DAYS: '0' }), /HISTORY_KEPT_DAYS/);
  });
});
