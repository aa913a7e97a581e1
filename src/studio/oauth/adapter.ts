import type { Kysely } from 'kysely';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Database } from '../../db/tables.ts';

/** Expired records are swept now and then, not on every write. */
const SWEEP_EVERY = 200;

/**
 * oidc-provider's storage in the service's own database (SQLite or PostgreSQL), so that several
 * instances share grants and tokens. Expiry is read against the wall clock, as the library sets it.
 */
export function kyselyAdapter(db: Kysely<Database>) {
  // Counted per adapter, so per app and store: each store is swept after its own writes.
  let writes = 0;
  return class KyselyOAuthAdapter implements Adapter {
    readonly model: string;
    constructor(model: string) {
      this.model = model;
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const row = {
        payload: JSON.stringify(payload),
        grant_id: typeof payload.grantId === 'string' ? payload.grantId : null,
        uid: typeof payload.uid === 'string' ? payload.uid : null,
        user_code: typeof payload.userCode === 'string' ? payload.userCode : null,
        expires_at: expiresIn ? Date.now() + expiresIn * 1000 : null,
      };
      await db
        .insertInto('oauth_records')
        .values({ model: this.model, id, consumed_at: null, ...row })
        .onConflict((oc) => oc.columns(['model', 'id']).doUpdateSet(row))
        .execute();
      if (++writes % SWEEP_EVERY === 0) {
        await db.deleteFrom('oauth_records').where('expires_at', '<', Date.now()).execute();
      }
    }

    private async findWhere(column: 'id' | 'uid' | 'user_code', value: string): Promise<AdapterPayload | undefined> {
      const row = await db
        .selectFrom('oauth_records')
        .select(['payload', 'expires_at', 'consumed_at'])
        .where('model', '=', this.model)
        .where(column, '=', value)
        .executeTakeFirst();
      if (!row || (row.expires_at !== null && Number(row.expires_at) <= Date.now())) return undefined;
      const payload = JSON.parse(row.payload) as AdapterPayload;
      return row.consumed_at === null ? payload : { ...payload, consumed: Math.floor(Number(row.consumed_at) / 1000) };
    }

    find(id: string) {
      return this.findWhere('id', id);
    }

    findByUid(uid: string) {
      return this.findWhere('uid', uid);
    }

    findByUserCode(userCode: string) {
      return this.findWhere('user_code', userCode);
    }

    async consume(id: string): Promise<void> {
      await db
        .updateTable('oauth_records')
        .set({ consumed_at: Date.now() })
        .where('model', '=', this.model)
        .where('id', '=', id)
        .execute();
    }

    async destroy(id: string): Promise<void> {
      await db.deleteFrom('oauth_records').where('model', '=', this.model).where('id', '=', id).execute();
      // The provider ends a grant itself on a reused refresh token, a replayed code or a revoked
      // refresh token: the studio's record of that authorization ends with it, or the Assistants
      // page would go on listing an assistant whose tokens no longer work.
      if (this.model === 'Grant') {
        await db
          .updateTable('assistant_authorizations')
          .set({ revoked_at: Date.now() })
          .where('grant_id', '=', id)
          .where('revoked_at', 'is', null)
          .execute();
      }
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await db.deleteFrom('oauth_records').where('grant_id', '=', grantId).execute();
    }
  };
}
