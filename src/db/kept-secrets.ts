import type { Kysely } from 'kysely';
import type { Database } from './tables.ts';

/**
 * A secret made once and kept in the store (table `oauth_secrets`, where the authorization server
 * keeps its own), so that every instance of a deployment and every restart use the same: the
 * first to need it writes it, the others read that one.
 */
export async function keptSecret(db: Kysely<Database>, name: string, make: () => string): Promise<string> {
  const read = () => db.selectFrom('oauth_secrets').select('value').where('name', '=', name).executeTakeFirst();
  const found = await read();
  if (found) return found.value;
  await db
    .insertInto('oauth_secrets')
    .values({ name, value: make() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  return (await read())?.value as string;
}
