import type { Clock } from '../core/clock.ts';
import { KeyStore } from '../core/keys.ts';
import { oneAtATime } from '../db/coordination.ts';
import type { Store } from '../db/store-interface.ts';
import { CreatorsStore } from '../resources/profile/creator.store.ts';
import { AccountsStore, RESET_LINK_MS } from '../studio/accounts/accounts.store.ts';
import { AgreementStore } from '../studio/agreement.store.ts';

export const DEMO_EMAIL = 'demo@example.com';

/**
 * What `npm start` found or made: a fresh demo key and a link that sets the demo creator's first
 * password (and signs the browser in) to show; the demo creator, and whether it still has no
 * password; or other creators only.
 */
export type DemoSeed =
  | { made: true; creatorId: string; key: string; signInToken: string }
  | { made: false; creatorId: string | undefined; passwordless: boolean };

/**
 * On a store with no creator: one demo creator and a write+publish key, so a newcomer can call at
 * once. The server calls this only once it listens, so a start that fails (a port in use) never
 * makes a key nobody saw; creator and key are written together or not at all.
 */
export async function seedDemoCreator(store: Store, clock: Clock): Promise<DemoSeed> {
  const { db, dialect } = store;
  const any = await db.selectFrom('creators').select('id').limit(1).executeTakeFirst();
  if (any) return found(store, clock);
  return db.transaction().execute(async (trx) => {
    // Instances starting together on an empty store: one makes the demo creator, the others see it.
    await oneAtATime(trx, 'demo creator');
    if (await trx.selectFrom('creators').select('id').limit(1).executeTakeFirst()) {
      return found({ db: trx, dialect }, clock);
    }
    const creator = await new CreatorsStore({ db: trx, clock, dialect }).create({
      email: DEMO_EMAIL,
      displayName: 'Demo Creator',
      agreementAccepted: false,
    });
    // No person stands behind the demo creator: it may price and publish at once, its acceptance
    // recorded with the version like anyone's.
    await new AgreementStore({ db: trx, clock, dialect }).acceptCurrent(creator.creatorId);
    const { key } = await new KeyStore(trx, clock).create({
      creatorId: creator.creatorId,
      scope: 'write',
      publish: true,
    });
    // The studio's way in, shown once beside the key: the first-password link an operator makes
    // for a new account, so it works once and for an hour, and the demo creator keeps the password.
    const signInToken = await new AccountsStore({ db: trx, clock, dialect }).createResetLink(
      creator.creatorId,
      RESET_LINK_MS,
    );
    return { made: true, creatorId: creator.creatorId, key, signInToken };
  });
}

async function found({ db, dialect }: Pick<Store, 'db' | 'dialect'>, clock: Clock): Promise<DemoSeed> {
  const creatorId = (await new CreatorsStore({ db, clock, dialect }).findByEmail(DEMO_EMAIL))?.creatorId;
  const passwordless =
    creatorId !== undefined && (await new AccountsStore({ db, clock, dialect }).passwordHash(creatorId)) === undefined;
  return { made: false, creatorId, passwordless };
}
