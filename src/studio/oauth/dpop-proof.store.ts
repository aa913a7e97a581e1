import { hash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/tables.ts';

/** Rows whose window closed are deleted now and then, not on every proof. */
const SWEEP_EVERY = 500;

/**
 * The DPoP proofs the resources took, kept in the database every instance shares: a proof is
 * taken once, by whichever instance sees it first (one insert that a second one conflicts with).
 */
export class DpopProofsStore {
  private readonly db: Kysely<Database>;
  private taken = 0;

  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  /**
   * Whether this is the first time the proof `jti` of the key `jkt` is seen. `expiresAtMs` is when
   * its `iat` window closes: after that the proof is refused as stale, so its row may go.
   */
  async firstUse(jkt: string, jti: string, expiresAtMs: number): Promise<boolean> {
    const id = hash('sha256', `${jkt}.${jti}`, 'base64url');
    const inserted = await this.db
      .insertInto('dpop_proofs')
      .values({ id, expires_at: expiresAtMs })
      .onConflict((oc) => oc.column('id').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (++this.taken % SWEEP_EVERY === 0) {
      await this.db.deleteFrom('dpop_proofs').where('expires_at', '<', Date.now()).execute();
    }
    return inserted !== undefined;
  }
}
