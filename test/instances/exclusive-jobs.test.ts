import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { type App, buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import type { BlobStore } from '../../src/resources/media/blob-store.ts';
import { sweepOrphanFilesAlone } from '../../src/resources/media/index.ts';
import { LocalBlobStore } from '../../src/resources/media/local-blob-store.ts';
import { openStore, type Store } from '../../src/store.ts';
import { testDialects } from '../helpers/dialects.ts';
import { type Harness, startServer } from '../helpers/harness.ts';
import { assertRefusalHeaders, rest } from '../helpers/http.ts';
import { checkerFor, serve } from '../helpers/local-servers.ts';
import { callTool, mcpClient } from '../helpers/mcp.ts';

/** A gate the test opens: work that waits on it is in progress until then. */
function gate() {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/** A link that answers only once the test lets it, so a check stays in progress meanwhile. */
let slowLink = gate();
const site = await serve((req, res) => {
  if (req.url?.startsWith('/slow')) void slowLink.opened.then(() => res.writeHead(200).end('fine'));
  else res.writeHead(200).end('fine');
});
const linkChecker = checkerFor([site]);

async function until(check: () => boolean, what: string): Promise<void> {
  const start = Date.now();
  while (!check()) {
    assert.ok(Date.now() - start < 10_000, `${what} within 10 s`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * Jobs that must not run twice at once, tried by two instances: two stores on one database (two
 * pools, two coordination connections on PostgreSQL), each with its own server.
 */
for (const { dialect, skip } of await testDialects()) {
  describe(`jobs that run one at a time across instances (${dialect})`, { skip }, () => {
    let h: Harness;
    let otherStore: Store;
    let other: App;
    let otherBase: string;
    before(async () => {
      h = await startServer({ dialect, services: { linkChecker }, env: { RATE_LIMIT_LINK_CHECKS_PER_HOUR: '2' } });
      otherStore = await openStore({ databaseUrl: h.config.databaseUrl, dataDir: h.config.dataDir });
      const config = loadConfig({
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'silent',
        DATA_DIR: h.config.dataDir,
        RATE_LIMIT_LINK_CHECKS_PER_HOUR: '2',
      });
      other = buildApp({
        config,
        store: otherStore,
        clock: h.clock,
        logger: pino({ level: 'silent' }),
        services: { linkChecker },
      });
      otherBase = `${await other.listen('127.0.0.1', 0)}/api/v1`;
    });
    after(async () => {
      await other?.close();
      await otherStore?.close();
      await h?.close();
    });

    async function guideWithLink(key: string, url: string): Promise<string> {
      const productId = (await rest(h.baseUrl, key, 'POST', '/guides', { name: 'Linked' })).body.productId as string;
      const spot = await rest(h.baseUrl, key, 'POST', `/guides/${productId}/spots`, {
        name: 'Lookout',
        links: [{ kind: 'official', url }],
      });
      assert.equal(spot.status, 201, JSON.stringify(spot.body));
      return productId;
    }

    it('check_links of one guide runs once at a time: the other instance is told to wait, its budget untouched', async () => {
      const key = h.alice.writeKey;
      const productId = await guideWithLink(key, `${site.origin}/slow`);
      const elsewhere = await guideWithLink(key, `${site.origin}/fast`);
      slowLink = gate();
      const asked = site.requests.length;
      const running = rest(h.baseUrl, key, 'POST', `/guides/${productId}/links/check`);
      await until(() => site.requests.slice(asked).some((r) => r.url === '/slow'), 'the first check reaches the link');

      const refused = await rest(otherBase, key, 'POST', `/guides/${productId}/links/check`);
      assert.equal(refused.status, 429, JSON.stringify(refused.body));
      assert.equal(refused.body.error.code, 'rate_limited');
      assert.match(refused.body.error.message, /link check of this guide is running now/);
      assert.equal(refused.body.error.details.policy, 'one-at-a-time');
      assertRefusalHeaders(refused);
      const client = await mcpClient(h.mcpUrl, key);
      try {
        const overMcp = await callTool(client, 'check_links', { productId });
        assert.equal(overMcp.isError, true);
        assert.equal(overMcp.body.error.code, 'rate_limited');
        assert.ok(overMcp.body.error.retryAfterMs > 0);
      } finally {
        await client.close();
      }
      // Another guide's check, and another creator's call naming this guide, are not held up.
      assert.equal((await rest(otherBase, key, 'POST', `/guides/${elsewhere}/links/check`)).status, 200);
      const bobs = await rest(otherBase, h.bob.writeKey, 'POST', `/guides/${productId}/links/check`);
      assert.equal(bobs.status, 404);

      slowLink.open();
      const done = await running;
      assert.equal(done.status, 200, JSON.stringify(done.body));
      assert.equal(done.body.checked, 1);
      // The refused calls spent nothing of the hourly budget (2 per instance here, without Redis):
      // this instance's second check runs, and only a third is over the limit.
      assert.equal((await rest(h.baseUrl, key, 'POST', `/guides/${productId}/links/check`)).status, 200);
      const over = await rest(h.baseUrl, key, 'POST', `/guides/${productId}/links/check`);
      assert.equal(over.status, 429);
      assert.equal(over.body.error.details.policy, 'link-checks');
    });

    it('an orphan sweep that finds another running on the other instance skips; the first removes the orphans', async () => {
      const blobs = await LocalBlobStore.open(join(h.config.dataDir, 'media'));
      const orphan = await blobs.put('orphanRace0001', Buffer.from('left behind'), 'image/jpeg');
      const listing = gate();
      let listed = false;
      const slowToList: BlobStore = Object.assign(Object.create(blobs) as BlobStore, {
        async *list() {
          listed = true;
          await listing.opened;
          yield* blobs.list();
        },
      });
      const later = Date.now() + 60_000;
      const first = sweepOrphanFilesAlone(h.store, slowToList, later);
      await until(() => listed, 'the first sweep lists the files');
      assert.deepEqual(await sweepOrphanFilesAlone(otherStore, blobs, later), {
        skipped: true,
        reason: 'another sweep of this store is running now',
      });
      assert.ok(await blobs.get(orphan.key), 'the skipped sweep removed nothing');
      listing.open();
      const result = await first;
      assert.ok('removed' in result && result.removed.includes(orphan.key));
      assert.equal(await blobs.get(orphan.key), undefined);
      const again = await sweepOrphanFilesAlone(otherStore, blobs, later);
      assert.ok('removed' in again, 'once the first ended, the other instance sweeps');
    });
  });
}
