import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/tables.ts';

/**
 * A secret made once and kept in the database, so that every instance and every restart use the
 * same: the first to need it writes it, the others read that one.
 */
async function kept(db: Kysely<Database>, name: string, make: () => string): Promise<string> {
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

export interface ProviderSecrets {
  /** Keys that sign the authorization server's own cookies (interactions, its session). */
  cookieKeys: string[];
  /** The signing key set (an RSA key): ID tokens are never issued, but the library wants one. */
  jwks: { keys: object[] };
}

export async function providerSecrets(db: Kysely<Database>): Promise<ProviderSecrets> {
  const cookieKey = await kept(db, 'cookie-key', () => randomBytes(32).toString('base64url'));
  const jwk = await kept(db, 'signing-key', () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    return JSON.stringify({
      ...privateKey.export({ format: 'jwk' }),
      kid: randomBytes(8).toString('base64url'),
      use: 'sig',
      alg: 'RS256',
    });
  });
  return { cookieKeys: [cookieKey], jwks: { keys: [JSON.parse(jwk) as object] } };
}
