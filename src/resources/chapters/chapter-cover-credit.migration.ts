import type { Kysely } from 'kysely';

/** A chapter's cover carries its photographer's credit, link and licence, as a photo does. */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of ['cover_credit', 'cover_credit_url', 'cover_licence']) {
    await db.schema.alterTable('chapters').addColumn(column, 'text').execute();
  }
}
