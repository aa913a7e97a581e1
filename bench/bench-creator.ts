import { systemClock } from '../src/core/clock.ts';
import { KeyStore } from '../src/core/keys.ts';
import { CreatorsStore } from '../src/resources/profile/creator.store.ts';
import type { Store } from '../src/store.ts';

/** A creator and its write+publish key, made through the stores as the test harness does. */
export async function benchCreatorKey(store: Store, email: string, displayName: string): Promise<string> {
  const creators = new CreatorsStore({ db: store.db, clock: systemClock, dialect: store.dialect });
  const creator = await creators.create({ email, displayName, agreementAccepted: true });
  const made = await new KeyStore(store.db, systemClock).create({
    creatorId: creator.creatorId,
    scope: 'write',
    publish: true,
  });
  return made.key;
}
