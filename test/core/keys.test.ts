import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../src/core/clock.ts';
import type { ApiError } from '../../src/core/errors.ts';
import { KeyStore } from '../../src/core/keys.ts';
import { CreatorsStore } from '../../src/resources/profile/creator.store.ts';
import { openStore, type Store } from '../../src/store.ts';

describe('the key cache', () => {
  const dir = mkdtempSync(join(tmpdir(), 'keys-'));
  const clock = new ManualClock('2026-11-23T10:00:00Z');
  let store: Store;
  let creatorId: string;
  before(async () => {
    store = await openStore({ dataDir: dir });
    creatorId = (
      await new CreatorsStore({ db: store.db, clock, dialect: store.dialect }).create({
        email: 'k@example.com',
        displayName: 'K',
        agreementAccepted: true,
      })
    ).creatorId;
  });
  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const refusal = async (p: unknown) => {
    try {
      await p;
    } catch (err) {
      return (err as ApiError).code;
    }
    return 'accepted';
  };

  test('a change committed behind the cache (another process) shows at the next call: the commit moved the mark', async () => {
    const server = new KeyStore(store.db, clock, { cacheMs: 60_000, revocations: store.coordination });
    const { keyId, key } = await server.create({ creatorId, scope: 'write', publish: false });
    assert.equal((await server.authenticate(key)).keyId, keyId);
    assert.equal((await server.authenticate(key)).keyId, keyId, 'served again');
    // Another connection revokes the key in SQL written by hand: no announcement, only the commit.
    const elsewhere = await openStore({ dataDir: dir });
    try {
      await elsewhere.db.updateTable('api_keys').set({ revoked_at: clock.now() }).where('id', '=', keyId).execute();
    } finally {
      await elsewhere.close();
    }
    assert.equal(await refusal(server.authenticate(key)), 'invalid_api_key');
  });

  test("the server's own writes leave the mark standing: keys stay cached under a load of writes", async () => {
    const mark = store.coordination.revocationMark();
    assert.notEqual(mark, undefined);
    await new CreatorsStore({ db: store.db, clock, dialect: store.dialect }).update(creatorId, { displayName: 'K2' });
    assert.equal(store.coordination.revocationMark(), mark);
    const elsewhere = await openStore({ dataDir: dir });
    try {
      await new CreatorsStore({ db: elsewhere.db, clock, dialect: elsewhere.dialect }).update(creatorId, {
        displayName: 'K3',
      });
    } finally {
      await elsewhere.close();
    }
    assert.notEqual(store.coordination.revocationMark(), mark, 'another connection committed');
  });

  test('a revocation or deactivation in this process shows at once, and expiry is checked on every call', async () => {
    const server = new KeyStore(store.db, clock, { cacheMs: 60_000, revocations: store.coordination });
    const revoked = await server.create({ creatorId, scope: 'read', publish: false });
    await server.authenticate(revoked.key);
    await new KeyStore(store.db, clock).revoke(revoked.keyId);
    assert.equal(await refusal(server.authenticate(revoked.key)), 'invalid_api_key');

    const expiring = await server.create({ creatorId, scope: 'read', publish: false, expiresAt: clock.now() + 500 });
    await server.authenticate(expiring.key);
    clock.advance(500);
    assert.equal(await refusal(server.authenticate(expiring.key)), 'invalid_api_key');

    const live = await server.create({ creatorId, scope: 'read', publish: false });
    await server.authenticate(live.key);
    await new CreatorsStore({ db: store.db, clock, dialect: store.dialect }).update(creatorId, { active: false });
    assert.equal(await refusal(server.authenticate(live.key)), 'forbidden');
  });
});
