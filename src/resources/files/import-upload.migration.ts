import type { Kysely } from 'kysely';

/**
 * Files uploaded for an import, kept an hour: they go with their guide, and are swept when they
 * expire (docs/decisions/files.md).
 */
async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('import_uploads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('guide_id', 'text', (c) => c.notNull().references('guides.id').onDelete('cascade'))
    .addColumn('filename', 'text')
    .addColumn('byte_size', 'integer', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('import_uploads_expiry').on('import_uploads').column('expires_at').execute();
  await db.schema.createIndex('import_uploads_guide').on('import_uploads').column('guide_id').execute();
}

export const importUploadMigrations = { '0033-import-uploads': { up } };
