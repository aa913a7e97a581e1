import type { Kysely } from 'kysely';
import { RENDITIONS } from './image-pipeline.ts';
import { fileKeyExpression, isPostgres } from './served-files.ts';

/**
 * What retention asks of the store (docs/decisions/history.md, Retention): `/media` asks whether a
 * working copy names a file by its key, so each rendition's key in `files` is indexed, and so is
 * the thumbnail's path; the sweep removes history entries by age.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgres(db);
  for (const name of RENDITIONS) {
    await db.schema
      .createIndex(`media_file_${name}`)
      .on('media')
      .expression(fileKeyExpression(postgres, name))
      .execute();
  }
  await db.schema.createIndex('guides_thumbnail_url').on('guides').column('thumbnail_url').execute();
  await db.schema.createIndex('changes_at').on('changes').column('at').execute();
}
