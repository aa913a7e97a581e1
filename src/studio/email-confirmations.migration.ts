import type { Kysely } from 'kysely';

/**
 * Confirmed email addresses and the links that confirm them. Accounts made before have no
 * confirmed address: their creators see the studio's banner and confirm once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('confirmed_emails')
    .addColumn('creator_id', 'text', (c) => c.primaryKey().references('creators.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('confirmed_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('email_confirmations')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('creator_id', 'text', (c) => c.notNull().references('creators.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('email_confirmations_creator').on('email_confirmations').column('creator_id').execute();
}
