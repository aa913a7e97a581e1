import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import pino from 'pino';
import { type App, buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { directReaders } from '../src/db/database.ts';
import { GuideViewCache } from '../src/resources/guides/guide-views.ts';
import { openStore } from '../src/store.ts';
import { noRateLimits } from './helpers/api.ts';
import { testDialects } from './helpers/dialects.ts';
import { type Harness, startServer } from './helpers/harness.ts';
import { rest } from './helpers/http.ts';

/**
 * Guide records and spot lists are served from views cached by guide revision. Two instances on
 * one store stand for a fleet: whichever instance wrote, the other's next read shows the write.
 */
for (const { dialect, skip } of await testDialects()) {
  describe(`cached views follow every write (${dialect})`, { skip }, () => {
    let h: Harness;
    let other: App;
    let otherBase: string;
    before(async () => {
      // Rate limits lifted: the readers below call as fast as the machine lets them, and the test
      // clock stands still, so a slow store (a loaded machine) would run them into a 429.
      h = await startServer({ dialect, env: noRateLimits });
      const config = loadConfig({
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'silent',
        DATA_DIR: '/nonexistent',
        ...noRateLimits,
      });
      other = buildApp({ config, store: h.store, clock: h.clock, logger: pino({ level: 'silent' }) });
      otherBase = `${await other.listen('127.0.0.1', 0)}/api/v1`;
    });
    after(async () => {
      await other?.close();
      await h?.close();
    });

    it('a guide record read on one instance shows a write made on the other at once', async () => {
      const key = h.alice.writeKey;
      const id = (await rest(h.baseUrl, key, 'POST', '/guides', { name: 'Cached' })).body.productId as string;
      assert.equal((await rest(otherBase, key, 'GET', `/guides/${id}`)).body.headline, null);
      assert.equal((await rest(otherBase, key, 'GET', `/guides/${id}`)).body.headline, null, 'served again');
      await rest(h.baseUrl, key, 'PATCH', `/guides/${id}`, { headline: 'Now with a promise' });
      assert.equal((await rest(otherBase, key, 'GET', `/guides/${id}`)).body.headline, 'Now with a promise');
      // The same millisecond (the clock stands still), another write: still seen.
      await rest(h.baseUrl, key, 'PATCH', `/guides/${id}`, { headline: 'Again' });
      assert.equal((await rest(otherBase, key, 'GET', `/guides/${id}`)).body.headline, 'Again');
      const spot = await rest(h.baseUrl, key, 'POST', `/guides/${id}/spots`, { name: 'Lookout' });
      assert.equal(spot.status, 201);
      assert.equal((await rest(otherBase, key, 'GET', `/guides/${id}`)).body.spotCount, 1);
    });

    it('a spot list read on one instance shows creations, edits and deletions made on the other', async () => {
      const key = h.alice.writeKey;
      const id = (await rest(h.baseUrl, key, 'POST', '/guides', { name: 'Listed' })).body.productId as string;
      const list = async () => (await rest(otherBase, key, 'GET', `/guides/${id}/spots`)).body;
      assert.equal((await list()).count, 0);
      const a = (await rest(h.baseUrl, key, 'POST', `/guides/${id}/spots`, { name: 'A' })).body.spotId as string;
      assert.deepEqual(
        (await list()).spots.map((s: { name: string }) => s.name),
        ['A'],
      );
      await rest(h.baseUrl, key, 'PATCH', `/spots/${a}`, { name: 'A renamed' });
      assert.deepEqual(
        (await list()).spots.map((s: { name: string }) => s.name),
        ['A renamed'],
      );
      await rest(h.baseUrl, key, 'PATCH', `/spots/${a}`, { archived: true });
      assert.equal((await list()).count, 0, 'archived spots leave the default list');
      assert.equal((await rest(otherBase, key, 'GET', `/guides/${id}/spots?includeArchived=true`)).body.count, 1);
      await rest(h.baseUrl, key, 'DELETE', `/spots/${a}`);
      assert.equal((await rest(otherBase, key, 'GET', `/guides/${id}/spots?includeArchived=true`)).body.count, 0);
    });

    it('a write committed by another connection to the store (another process) shows at the next read', async () => {
      const key = h.alice.writeKey;
      const id = (await rest(h.baseUrl, key, 'POST', '/guides', { name: 'Elsewhere' })).body.productId as string;
      const elsewhere = await openStore({ databaseUrl: h.config.databaseUrl, dataDir: h.config.dataDir });
      try {
        for (let round = 1; round <= 12; round += 1) {
          assert.equal((await rest(h.baseUrl, key, 'GET', `/guides/${id}`)).status, 200, 'cached first');
          if (round % 4 === 0 && dialect === 'sqlite') {
            // A checkpoint starts the write-ahead log over; the next commit must still be seen.
            await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(elsewhere.db);
          }
          await sql`update guides set headline = ${`Round ${round}`}, revision = revision + 1 where id = ${id}`.execute(
            elsewhere.db,
          );
          assert.equal((await rest(h.baseUrl, key, 'GET', `/guides/${id}`)).body.headline, `Round ${round}`);
        }
      } finally {
        await elsewhere.close();
      }
    });

    it('while other calls keep the revision reads busy, a write on the other instance shows at the next read', async () => {
      // PostgreSQL reads revisions for many calls at once beside the pool (db/aside-reads.ts): a
      // call that comes while such a read runs must not take that read's answer.
      const key = h.alice.writeKey;
      const id = (await rest(h.baseUrl, key, 'POST', '/guides', { name: 'Busy' })).body.productId as string;
      let reading = true;
      const readers = Array.from({ length: 8 }, async () => {
        while (reading) assert.equal((await rest(otherBase, key, 'GET', `/guides/${id}`)).status, 200);
      });
      try {
        for (let round = 1; round <= 15; round += 1) {
          await rest(h.baseUrl, key, 'PATCH', `/guides/${id}`, { headline: `Busy ${round}` });
          assert.equal((await rest(otherBase, key, 'GET', `/guides/${id}`)).body.headline, `Busy ${round}`);
        }
      } finally {
        reading = false;
        await Promise.all(readers);
      }
    });

    it('while other calls keep reading the commit stamp, a write by another connection shows at the next read', async () => {
      // A read-only call confirms its view against a stamp read after it arrived, by its own key
      // check or by another call's (NodeSqliteAdapter.commitStampSince): never one read before.
      const key = h.alice.writeKey;
      const id = (await rest(h.baseUrl, key, 'POST', '/guides', { name: 'Read around' })).body.productId as string;
      const elsewhere = await openStore({ databaseUrl: h.config.databaseUrl, dataDir: h.config.dataDir });
      let reading = true;
      const readers = Array.from({ length: 8 }, async () => {
        while (reading) assert.equal((await rest(h.baseUrl, key, 'GET', `/guides/${id}`)).status, 200);
      });
      try {
        for (let round = 1; round <= 15; round += 1) {
          await sql`update guides set headline = ${`Around ${round}`}, revision = revision + 1 where id = ${id}`.execute(
            elsewhere.db,
          );
          assert.equal((await rest(h.baseUrl, key, 'GET', `/guides/${id}`)).body.headline, `Around ${round}`);
        }
      } finally {
        reading = false;
        await Promise.all(readers);
        await elsewhere.close();
      }
    });

    if (dialect === 'sqlite') {
      it('a cached get_guide reads the commit stamp once: its key check’s read confirms its view', async () => {
        const key = h.alice.writeKey;
        const id = (await rest(h.baseUrl, key, 'POST', '/guides', { name: 'Once' })).body.productId as string;
        const adapter = directReaders.get(h.store.db);
        assert.ok(adapter);
        for (const base of [h.baseUrl, otherBase]) {
          await rest(base, key, 'GET', `/guides/${id}`);
          const reads: number = adapter.stampReadCount;
          assert.equal((await rest(base, key, 'GET', `/guides/${id}`)).status, 200);
          assert.equal(adapter.stampReadCount - reads, 1);
        }
      });

      it('a view kept at a revision the commit stamp confirms is answered without a promise', async () => {
        const key = h.alice.writeKey;
        const id = (await rest(h.baseUrl, key, 'POST', '/guides', { name: 'At once' })).body.productId as string;
        const views = new GuideViewCache();
        const build = async () => ({ built: id });
        const first = views.view(h.store.db, h.alice.creatorId, id, 'test', build);
        assert.ok(first instanceof Promise, 'read and built');
        const kept = await first;
        // Every cached read asks: a promise would cost it turns of the microtask queue.
        assert.equal(views.view(h.store.db, h.alice.creatorId, id, 'test', build), kept);
        await rest(h.baseUrl, key, 'PATCH', `/guides/${id}`, { headline: 'Moved' });
        const after = views.view(h.store.db, h.alice.creatorId, id, 'test', build);
        assert.ok(after instanceof Promise, 'the stamp moved: the revision is read again');
        assert.notEqual(await after, kept, 'built again at the new revision');
      });
    }

    it('another creator gets the same 404 from a cached view as from a missing guide', async () => {
      const id = (await rest(h.baseUrl, h.alice.writeKey, 'POST', '/guides', { name: 'Private' })).body.productId;
      await rest(otherBase, h.alice.writeKey, 'GET', `/guides/${id}/spots`);
      const theirs = await rest(otherBase, h.bob.readKey, 'GET', `/guides/${id}/spots`);
      const missing = await rest(otherBase, h.bob.readKey, 'GET', '/guides/gd_missing/spots');
      assert.equal(theirs.status, 404);
      assert.deepEqual(theirs.body.error.code, missing.body.error.code);
      assert.equal(theirs.body.error.message.replace(id, 'ID'), missing.body.error.message.replace('gd_missing', 'ID'));
    });
  });
}
