import { type Kysely, sql } from 'kysely';
import { FIRST_AGREEMENT } from './agreement-text.ts';

/**
 * The studio's accounts: passwords, sign-in sessions and reset links; names of API keys; the
 * versions of the creator agreement and who accepted which. Creators who had accepted before
 * versions existed accepted the first one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('creator_passwords')
    .addColumn('creator_id', 'text', (c) => c.primaryKey().references('creators.id').onDelete('cascade'))
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('studio_sessions')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('creator_id', 'text', (c) => c.notNull().references('creators.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('studio_sessions_creator').on('studio_sessions').column('creator_id').execute();

  await db.schema
    .createTable('password_resets')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('creator_id', 'text', (c) => c.notNull().references('creators.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('password_resets_creator').on('password_resets').column('creator_id').execute();

  await db.schema.alterTable('api_keys').addColumn('name', 'text').execute();

  await db.schema
    .createTable('agreement_versions')
    .addColumn('version', 'integer', (c) => c.primaryKey())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('published_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('agreement_acceptances')
    .addColumn('creator_id', 'text', (c) => c.notNull().references('creators.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull().references('agreement_versions.version'))
    .addColumn('accepted_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('agreement_acceptances_pk', ['creator_id', 'version'])
    .execute();

  const now = Date.now();
  const { version, title, body } = FIRST_AGREEMENT;
  await sql`insert into agreement_versions (version, title, body, published_at)
    values (${version}, ${title}, ${body}, ${now})`.execute(db);
  await sql`insert into agreement_acceptances (creator_id, version, accepted_at)
    select id, ${version}, updated_at from creators where agreement_accepted = 1`.execute(db);
}
