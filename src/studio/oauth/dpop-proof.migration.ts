import type { Kysely } from 'kysely';

/**
 * The DPoP proofs the resources took, by key and `jti`, until their `iat` window closes: a proof
 * replayed to any instance finds its row.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('dpop_proofs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('dpop_proofs_expiry').on('dpop_proofs').column('expires_at').execute();
}
