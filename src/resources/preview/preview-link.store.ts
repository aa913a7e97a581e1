import { hash, randomBytes } from 'node:crypto';
import type { ExpressionBuilder } from 'kysely';
import { credentialWorks } from '../../core/credential-works.ts';
import { newId } from '../../core/new-id.ts';
import { ScopedStore } from '../../core/stores.ts';
import type { Database } from '../../db/tables.ts';

/** How long a preview link works: long enough to open it from a chat, short enough not to be shared on. */
export const PREVIEW_LINK_MS = 60 * 60_000;

const tokenHash = (token: string) => hash('sha256', token, 'base64url');

/** A link as the studio lists it: never its token, which only its maker ever saw. */
export interface PreviewLinkListing {
  linkId: string;
  guideId: string;
  createdAt: number;
  expiresAt: number;
  /** The key's name or the assistant's, as the studio's keys and assistants pages show them. */
  madeBy: string;
}

/**
 * The links that work now: not expired, their guide still its creator's and not archived, the
 * creator active, and the credential that made them still working (core/credential-works.ts).
 */
function working(eb: ExpressionBuilder<Database, 'preview_links' | 'guides' | 'creators'>, now: number) {
  return eb.and([
    eb('preview_links.expires_at', '>', now),
    eb('creators.active', '=', 1),
    eb('guides.status', '<>', 'archived'),
    eb(eb.ref('guides.creator_id'), '=', eb.ref('preview_links.creator_id')),
    credentialWorks(eb.ref('preview_links.made_by'), now),
  ]);
}

/** Links that open a guide's working copy without signing in, until they expire or are ended. */
export class PreviewLinksStore extends ScopedStore {
  private joined() {
    return this.db
      .selectFrom('preview_links')
      .innerJoin('creators', 'creators.id', 'preview_links.creator_id')
      .innerJoin('guides', 'guides.id', 'preview_links.guide_id');
  }

  /**
   * A new link's token (256 random bits) and when it expires; `madeBy` is the calling key's id or
   * grant id, whose revocation ends the link. Expired links are swept here.
   */
  async create(
    guideId: string,
    creatorId: string,
    madeBy: string,
  ): Promise<{ linkId: string; token: string; expiresAt: number }> {
    const token = randomBytes(32).toString('base64url');
    const linkId = newId('pvl');
    const now = this.clock.now();
    const expiresAt = now + PREVIEW_LINK_MS;
    await this.db.deleteFrom('preview_links').where('expires_at', '<=', now).execute();
    await this.db
      .insertInto('preview_links')
      .values({
        id: linkId,
        token_hash: tokenHash(token),
        guide_id: guideId,
        creator_id: creatorId,
        made_by: madeBy,
        created_at: now,
        expires_at: expiresAt,
      })
      .execute();
    return { linkId, token, expiresAt };
  }

  /** The guide a working link opens; undefined for anything else. */
  async open(token: unknown): Promise<{ guideId: string; creatorId: string; expiresAt: number } | undefined> {
    if (typeof token !== 'string' || !/^[\w-]{43}$/.test(token)) return undefined;
    const row = await this.joined()
      .select(['preview_links.guide_id', 'preview_links.creator_id', 'preview_links.expires_at'])
      .where('preview_links.token_hash', '=', tokenHash(token))
      .where((eb) => working(eb, this.clock.now()))
      .executeTakeFirst();
    return row && { guideId: row.guide_id, creatorId: row.creator_id, expiresAt: Number(row.expires_at) };
  }

  /** The creator's working links, newest first, with who made each. */
  async listWorking(creatorId: string): Promise<PreviewLinkListing[]> {
    const rows = await this.joined()
      .leftJoin('api_keys', 'api_keys.id', 'preview_links.made_by')
      .leftJoin('assistant_authorizations', 'assistant_authorizations.grant_id', 'preview_links.made_by')
      .select([
        'preview_links.id',
        'preview_links.guide_id',
        'preview_links.created_at',
        'preview_links.expires_at',
        'api_keys.name as key_name',
        'api_keys.hint as key_hint',
        'assistant_authorizations.client_name',
      ])
      .where('preview_links.creator_id', '=', creatorId)
      .where((eb) => working(eb, this.clock.now()))
      .orderBy('preview_links.created_at', 'desc')
      .orderBy('preview_links.id')
      .execute();
    return rows.map((row) => ({
      linkId: row.id,
      guideId: row.guide_id,
      createdAt: Number(row.created_at),
      expiresAt: Number(row.expires_at),
      madeBy:
        row.client_name !== null
          ? `the assistant “${row.client_name}”`
          : `the key “${row.key_name ?? 'no name'}” (…${row.key_hint ?? ''})`,
    }));
  }

  /** Ends one link of the creator's; false when the creator has no such link. */
  async end(linkId: string, creatorId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('preview_links')
      .where('id', '=', linkId)
      .where('creator_id', '=', creatorId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Ends every link to a guide (it is being archived): restoring it later does not bring them back. */
  async endForGuide(guideId: string): Promise<void> {
    await this.db.deleteFrom('preview_links').where('guide_id', '=', guideId).execute();
  }
}
