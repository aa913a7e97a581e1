import { hash, randomBytes } from 'node:crypto';
import { ScopedStore } from '../../core/stores.ts';

/** How long a preview link works: long enough to open it from a chat, short enough not to be shared on. */
export const PREVIEW_LINK_MS = 60 * 60_000;

const tokenHash = (token: string) => hash('sha256', token, 'base64url');

/** Links that open a guide's working copy without signing in, until they expire. */
export class PreviewLinksStore extends ScopedStore {
  /** A new link's token (256 random bits) and when it expires. Expired links are swept here. */
  async create(guideId: string, creatorId: string): Promise<{ token: string; expiresAt: number }> {
    const token = randomBytes(32).toString('base64url');
    const now = this.clock.now();
    const expiresAt = now + PREVIEW_LINK_MS;
    await this.db.deleteFrom('preview_links').where('expires_at', '<=', now).execute();
    await this.db
      .insertInto('preview_links')
      .values({
        token_hash: tokenHash(token),
        guide_id: guideId,
        creator_id: creatorId,
        created_at: now,
        expires_at: expiresAt,
      })
      .execute();
    return { token, expiresAt };
  }

  /** The guide a live link opens, of a creator still active; undefined for anything else. */
  async open(token: unknown): Promise<{ guideId: string; creatorId: string; expiresAt: number } | undefined> {
    if (typeof token !== 'string' || !/^[\w-]{43}$/.test(token)) return undefined;
    const row = await this.db
      .selectFrom('preview_links')
      .innerJoin('creators', 'creators.id', 'preview_links.creator_id')
      .innerJoin('guides', 'guides.id', 'preview_links.guide_id')
      .select(['preview_links.guide_id', 'preview_links.creator_id', 'preview_links.expires_at'])
      .where('preview_links.token_hash', '=', tokenHash(token))
      .where('preview_links.expires_at', '>', this.clock.now())
      .where('creators.active', '=', 1)
      .whereRef('guides.creator_id', '=', 'preview_links.creator_id')
      .executeTakeFirst();
    return row && { guideId: row.guide_id, creatorId: row.creator_id, expiresAt: Number(row.expires_at) };
  }
}
