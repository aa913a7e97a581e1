import type { Store } from '../../src/store.ts';

/**
 * Holds every connection of the store in an open transaction (the one connection of SQLite, the
 * pool of PostgreSQL), so that the next call must wait; resolves once all are held, with the
 * function that lets them go.
 */
export async function holdEveryConnection(store: Store): Promise<() => Promise<void>> {
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let holding = 0;
  const holders = Array.from({ length: store.probe.max }, () =>
    store.db.transaction().execute(async (trx) => {
      await trx.selectFrom('guides').select('id').execute();
      holding++;
      await gate;
    }),
  );
  // A holder that could not get its connection (a short acquire deadline) fails the hold, never hangs it.
  let failed: unknown;
  for (const holder of holders) holder.catch((err: unknown) => (failed ??= err));
  while (holding < store.probe.max) {
    if (failed !== undefined) {
      release();
      await Promise.allSettled(holders);
      throw failed;
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  return async () => {
    release();
    await Promise.all(holders);
  };
}
