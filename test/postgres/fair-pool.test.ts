import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { onBehalfOf } from '../../src/db/fair-turns.ts';
import { testDialects } from '../helpers/dialects.ts';
import { type Harness, startServer } from '../helpers/harness.ts';
import { rest } from '../helpers/http.ts';

const postgres = (await testDialects()).find((d) => d.dialect === 'postgres');

/**
 * The pool's connections among creators, as behaviour rather than timing: with every connection
 * held by one creator's calls and more of theirs waiting, another creator's call gets the next
 * connection given back (db/fair-turns.ts).
 */
describe('the PostgreSQL pool is shared fairly', { skip: postgres?.skip ?? 'PostgreSQL not tested' }, () => {
  let h: Harness;
  before(async () => {
    h = await startServer({ dialect: 'postgres' });
  });
  after(async () => {
    await h?.close();
  });

  it("another creator's statement runs before one creator's that waited longer", async () => {
    const { db, probe } = h.store;
    const finished: string[] = [];
    const releases: Array<() => void> = [];
    // One creator's transactions hold every connection of the pool.
    const holding = Array.from({ length: probe.max }, () =>
      onBehalfOf('walker', () =>
        db.transaction().execute(async (trx) => {
          await sql`select 1`.execute(trx);
          await new Promise<void>((resolve) => releases.push(resolve));
        }),
      ),
    );
    while (releases.length < probe.max) await new Promise((resolve) => setTimeout(resolve, 5));
    const run = (party: string, label: string) =>
      onBehalfOf(party, () => sql`select 1`.execute(db)).then(() => finished.push(label));
    const walkers = [1, 2, 3].map((n) => run('walker', `walker ${n}`));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const other = run('other', 'other');
    while (probe.waiting < 4) await new Promise((resolve) => setTimeout(resolve, 5));
    releases[0]?.();
    await other;
    assert.deepEqual(finished, ['other'], 'the first connection given back went to the other creator');
    for (const release of releases) release();
    await Promise.all([...walkers, ...holding]);
  });

  it("a creator's API calls wait their turn as that creator", async () => {
    // The same, through the API: every connection held by alice's party, bob's call answers first.
    const { db, probe } = h.store;
    const bobGuide = (await rest(h.baseUrl, h.bob.writeKey, 'POST', '/guides', { name: 'Bob' })).body.productId;
    const aliceGuide = (await rest(h.baseUrl, h.alice.writeKey, 'POST', '/guides', { name: 'Alice' })).body.productId;
    // Both keys read once the revocation beats come back, so they are served from memory below.
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const key of [h.alice.writeKey, h.bob.writeKey])
      assert.equal((await rest(h.baseUrl, key, 'GET', '/me')).status, 200);
    const releases: Array<() => void> = [];
    const holding = Array.from({ length: probe.max }, () =>
      onBehalfOf(h.alice.creatorId, () =>
        db.transaction().execute(async (trx) => {
          await sql`select 1`.execute(trx);
          await new Promise<void>((resolve) => releases.push(resolve));
        }),
      ),
    );
    while (releases.length < probe.max) await new Promise((resolve) => setTimeout(resolve, 5));
    const answered: string[] = [];
    const edit = (key: string, id: string, who: string) =>
      rest(h.baseUrl, key, 'PATCH', `/guides/${id}`, { headline: who }).then((a) => {
        assert.equal(a.status, 200, JSON.stringify(a.body));
        answered.push(who);
      });
    const alices = [edit(h.alice.writeKey, aliceGuide, 'alice')];
    while (probe.waiting < 1) await new Promise((resolve) => setTimeout(resolve, 5));
    const bobs = edit(h.bob.writeKey, bobGuide, 'bob');
    while (probe.waiting < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    releases[0]?.();
    await bobs;
    assert.deepEqual(answered, ['bob']);
    for (const release of releases) release();
    await Promise.all([...alices, ...holding]);
  });
});
