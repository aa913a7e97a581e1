import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { DEMO_EMAIL, seedDemoCreator } from '../../src/admin/demo-creator.ts';
import { ManualClock } from '../../src/core/clock.ts';
import { CreatorsStore } from '../../src/resources/profile/creator.store.ts';
import { openStore, type Store } from '../../src/store.ts';
import { AgreementStore } from '../../src/studio/agreement.store.ts';
import { freshPostgresSchema, testDialects } from '../helpers/dialects.ts';
import { openStoreBefore } from '../helpers/old-store.ts';

/** The migration that brings the agreement flag and the record of who accepted together. */
const RECORDS = '0023-agreement-records';

/**
 * The agreement flag the gates read says accepted only where a creator's acceptance of the current
 * version is on record: stores made before the rule lose the flag of accounts nobody accepted for.
 */
for (const { dialect, skip } of await testDialects()) {
  describe(`the agreement is accepted only on record (${dialect})`, { skip }, () => {
    const clock = new ManualClock('2026-11-23T10:00:00Z');
    const dataDirs: string[] = [];
    const schemas: Array<{ drop(): Promise<void> }> = [];
    const stores: Store[] = [];
    const where = async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'creator-api-agreement-'));
      dataDirs.push(dataDir);
      const schema = dialect === 'postgres' ? await freshPostgresSchema() : undefined;
      if (schema) schemas.push(schema);
      return { dataDir, databaseUrl: schema?.url };
    };
    const kept = (store: Store) => {
      stores.push(store);
      return store;
    };
    after(async () => {
      for (const store of stores) await store.close();
      for (const schema of schemas) await schema.drop();
      for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
    });

    const standing = async (store: Store, creatorId: string) => {
      const scope = { db: store.db, clock, dialect: store.dialect };
      return {
        flag: (await new CreatorsStore(scope).require(creatorId)).agreementAccepted,
        recorded: (await new AgreementStore(scope).lastAccepted(creatorId))?.version,
      };
    };

    it('an old store: flags nobody recorded are cleared, recorded ones and the demo creator kept', async () => {
      const options = await where();
      // Every migration named before the records, the resources' included (0026 came later).
      const old = await openStoreBefore(options, RECORDS);
      const scope = { db: old.db, clock, dialect: old.dialect };
      const creators = new CreatorsStore(scope);
      const make = (email: string, agreementAccepted: boolean) =>
        creators.create({ email, displayName: email, agreementAccepted }).then((c) => c.creatorId);
      const operatorMade = await make('operator-made@example.com', true);
      const accepted = await make('accepted@example.com', false);
      await new AgreementStore(scope).acceptCurrent(accepted);
      const demo = await make(DEMO_EMAIL, true);
      const notYet = await make('not-yet@example.com', false);
      await old.close();

      const store = kept(await openStore(options));
      assert.deepEqual(await standing(store, operatorMade), { flag: false, recorded: undefined });
      assert.deepEqual(await standing(store, accepted), { flag: true, recorded: 1 });
      assert.deepEqual(await standing(store, demo), { flag: true, recorded: 1 });
      assert.deepEqual(await standing(store, notYet), { flag: false, recorded: undefined });
    });

    it('the demo creator of a new store has accepted the current version on record', async () => {
      const options = await where();
      const store = kept(await openStore(options));
      const seeded = await seedDemoCreator(store, clock);
      assert.equal(seeded.made, true);
      assert.deepEqual(await standing(store, seeded.creatorId as string), { flag: true, recorded: 1 });
    });
  });
}
