import { type Expression, expressionBuilder, type SqlBool } from 'kysely';
import type { Database } from '../db/tables.ts';
import { STUDIO_KEY_PREFIX } from './auth.ts';

/**
 * True while the credential that made something (an API key's id, an assistant's grant id or a
 * studio session's `studioPrincipal` id) still works: a key neither revoked nor expired, an
 * assistant not disconnected, a session neither signed out nor run out. Asked at every use of what
 * it made (a preview link, a download address), so whichever way a credential ends (the studio, the
 * admin command line, reuse detection, an expiry) what it made ends with it.
 */
export function credentialWorks(madeBy: Expression<string>, now: number): Expression<SqlBool> {
  // Built on its own, so that any query can hold it whatever tables that query has joined.
  const eb = expressionBuilder<Database, never>();
  return eb.or([
    eb.exists(
      eb
        .selectFrom('api_keys')
        .select('api_keys.id')
        .where('api_keys.id', '=', madeBy)
        .where('api_keys.revoked_at', 'is', null)
        .where((k) => k.or([k('api_keys.expires_at', 'is', null), k('api_keys.expires_at', '>', now)])),
    ),
    eb.exists(
      eb
        .selectFrom('assistant_authorizations')
        .select('assistant_authorizations.grant_id')
        .where('assistant_authorizations.grant_id', '=', madeBy)
        .where('assistant_authorizations.revoked_at', 'is', null),
    ),
    // A session's expiry never passes its absolute end (SessionsStore), so it alone says whether it lasts.
    eb.exists(
      eb
        .selectFrom('studio_sessions')
        .select('studio_sessions.id_hash')
        .where('studio_sessions.id_hash', '=', eb.fn<string>('substr', [madeBy, eb.val(STUDIO_KEY_PREFIX.length + 1)]))
        .where('studio_sessions.expires_at', '>', now),
    ),
  ]);
}
