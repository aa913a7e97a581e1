import { newId } from '../../core/new-id.ts';
import { ScopedStore } from '../../core/stores.ts';

/** How long an uploaded file waits for its import: long enough to look at a dry run and decide. */
export const UPLOAD_TTL_MS = 60 * 60 * 1000;

export interface ImportUpload {
  uploadId: string;
  guideId: string;
  filename: string | null;
  bytes: Buffer;
  expiresAt: number;
}

/** Files uploaded for import_spots. All SQL about them lives here. */
export class ImportUploadsStore extends ScopedStore {
  /** Keeps a file for UPLOAD_TTL_MS; answers its id and when it expires. */
  async insert(
    guideId: string,
    filename: string | undefined,
    bytes: Buffer,
  ): Promise<{ id: string; expiresAt: number }> {
    const id = newId('upl');
    const now = this.clock.now();
    const expiresAt = now + UPLOAD_TTL_MS;
    await this.db
      .insertInto('import_uploads')
      .values({
        id,
        guide_id: guideId,
        filename: filename ?? null,
        byte_size: bytes.length,
        content: bytes.toString('base64'),
        expires_at: expiresAt,
        created_at: now,
      })
      .execute();
    return { id, expiresAt };
  }

  /** The guide's upload with this id while it has not expired; undefined otherwise (gone, another guide's). */
  async find(guideId: string, uploadId: string): Promise<ImportUpload | undefined> {
    const row = await this.db
      .selectFrom('import_uploads')
      .selectAll()
      .where('id', '=', uploadId)
      .where('guide_id', '=', guideId)
      .where('expires_at', '>', this.clock.now())
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      uploadId: row.id,
      guideId: row.guide_id,
      filename: row.filename,
      bytes: Buffer.from(row.content, 'base64'),
      expiresAt: Number(row.expires_at),
    };
  }

  /** Removes every expired upload, whoever's; answers how many. */
  async sweep(): Promise<number> {
    const result = await this.db
      .deleteFrom('import_uploads')
      .where('expires_at', '<=', this.clock.now())
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
