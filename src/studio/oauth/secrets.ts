import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { keptSecret } from '../../db/kept-secrets.ts';
import type { Database } from '../../db/tables.ts';

export interface ProviderSecrets {
  /** Keys that sign the authorization server's own cookies (interactions, its session). */
  cookieKeys: string[];
  /** The signing key set (an RSA key): ID tokens are never issued, but the library wants one. */
  jwks: { keys: object[] };
}

export async function providerSecrets(db: Kysely<Database>): Promise<ProviderSecrets> {
  const cookieKey = await keptSecret(db, 'cookie-key', () => randomBytes(32).toString('base64url'));
  const jwk = await keptSecret(db, 'signing-key', () => {
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
