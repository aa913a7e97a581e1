import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useServer } from '../helpers/api.ts';
import { testDialects } from '../helpers/dialects.ts';
import { rest } from '../helpers/http.ts';

/**
 * Creates racing on one guide or one account: every call succeeds or is refused as a 400, never
 * a 500, and what they make is distinct (keys, slugs, orders). On PostgreSQL, READ COMMITTED lets
 * a check-then-insert race unless the guide (or the creator) is locked first.
 */
for (const { dialect, skip } of await testDialects()) {
  describe(`concurrent creates (${dialect})`, { skip }, () => {
    // 100 writes queue on one guide's lock: on a loaded 2-core machine the last waits longer than
    // the default 5 s for a connection, a 503 that is the deadline working, not a race lost.
    const suite = useServer({ dialect, env: { DATABASE_ACQUIRE_TIMEOUT_MS: '60000' } });
    const post = (path: string, body: unknown) => rest(suite.h.baseUrl, suite.h.alice.writeKey, 'POST', path, body);
    const statuses = (answers: Array<{ status: number }>) => {
      const counts: Record<number, number> = {};
      for (const a of answers) counts[a.status] = (counts[a.status] ?? 0) + 1;
      return counts;
    };

    it('100 create_spot with one name on one guide: 100 spots, 100 distinct keys and orders', async () => {
      const guide = (await post('/guides', { name: 'Race one name' })).body.productId as string;
      const answers = await Promise.all(
        Array.from({ length: 100 }, () => post(`/guides/${guide}/spots`, { name: 'Lago di Braies' })),
      );
      assert.deepEqual(statuses(answers), { 201: 100 });
      const keys = new Set(answers.map((a) => a.body.spotKey));
      const orders = new Set(answers.map((a) => a.body.order));
      assert.equal(keys.size, 100);
      assert.equal(orders.size, 100);
    });

    it('100 create_spot with distinct names: 100 distinct orders, listed in one order', async () => {
      const guide = (await post('/guides', { name: 'Race many names' })).body.productId as string;
      const answers = await Promise.all(
        Array.from({ length: 100 }, (_, i) => post(`/guides/${guide}/spots`, { name: `Spot ${i}` })),
      );
      assert.deepEqual(statuses(answers), { 201: 100 });
      assert.equal(new Set(answers.map((a) => a.body.order)).size, 100);
      const listed = await rest(suite.h.baseUrl, suite.h.alice.writeKey, 'GET', `/guides/${guide}/spots?limit=100`);
      assert.equal(listed.body.count, 100);
      assert.equal(listed.body.total, 100);
    });

    it('20 create_guide with one name: 20 guides with 20 distinct slugs', async () => {
      const answers = await Promise.all(Array.from({ length: 20 }, () => post('/guides', { name: 'Same title' })));
      assert.deepEqual(statuses(answers), { 201: 20 });
      assert.equal(new Set(answers.map((a) => a.body.slug)).size, 20);
    });

    it('20 create_property with one label and 20 upsert_spots of one key: no 500', async () => {
      const guide = (await post('/guides', { name: 'Race properties' })).body.productId as string;
      const properties = await Promise.all(
        Array.from({ length: 20 }, () =>
          post(`/guides/${guide}/properties`, { label: 'Entry fee', kind: 'shortLabel' }),
        ),
      );
      assert.deepEqual(statuses(properties), { 201: 20 });
      assert.equal(new Set(properties.map((a) => a.body.key)).size, 20);
      assert.equal(new Set(properties.map((a) => a.body.schemaVersion)).size, 20);
      const upserts = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          post(`/guides/${guide}/spots/batch`, { spots: [{ spotKey: 'shared-key', name: `Version ${i}` }] }),
        ),
      );
      assert.deepEqual(statuses(upserts), { 200: 20 });
      assert.equal(upserts.filter((a) => a.body.created.length === 1).length, 1, 'one call creates, the rest update');
    });

    it('a long name made three times gets three slugs within 63 characters', async () => {
      const name = `${'Grand tour of the Dolomites and their lakes '.repeat(2)}`.slice(0, 80);
      const slugs: string[] = [];
      for (let i = 0; i < 3; i++) {
        const answer = await post('/guides', { name });
        assert.equal(answer.status, 201, JSON.stringify(answer.body));
        slugs.push(answer.body.slug);
      }
      assert.equal(new Set(slugs).size, 3);
      for (const slug of slugs) assert.ok(slug.length <= 63, slug);
      const spotName = 'x'.repeat(70);
      const guide = (await post('/guides', { name: 'Long spot names' })).body.productId as string;
      for (let i = 0; i < 3; i++) {
        const answer = await post(`/guides/${guide}/spots`, { name: spotName });
        assert.equal(answer.status, 201, JSON.stringify(answer.body));
      }
    });

    it('creator accounts with one long display name get distinct slugs (the admin command line)', async () => {
      const displayName = 'An extremely long creator display name for slugs '.repeat(2).slice(0, 80);
      const slugs = new Set<string>();
      for (let i = 0; i < 3; i++) {
        const creator = await suite.h.creators.create({
          email: `long-${i}-${dialect}@example.com`,
          displayName,
          agreementAccepted: true,
        });
        slugs.add(creator.slug);
      }
      assert.equal(slugs.size, 3);
    });
  });
}
