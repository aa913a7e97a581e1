import { ScopedStore } from '../../core/stores.ts';
import { looksLikeSecret, newSecret, secretHash } from './tokens.ts';

/** How long a reset link works. */
export const RESET_LINK_MS = 60 * 60_000;
/** How long a first-password link made by the operator works. */
export const FIRST_PASSWORD_LINK_MS = 7 * 24 * 3600_000;

/** Passwords and the links that set them. */
export class AccountsStore extends ScopedStore {
  async passwordHash(creatorId: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('creator_passwords')
      .select('password_hash')
      .where('creator_id', '=', creatorId)
      .executeTakeFirst();
    return row?.password_hash;
  }

  async setPassword(creatorId: string, passwordHash: string): Promise<void> {
    const now = this.clock.now();
    await this.db
      .insertInto('creator_passwords')
      .values({ creator_id: creatorId, password_hash: passwordHash, updated_at: now })
      .onConflict((oc) => oc.column('creator_id').doUpdateSet({ password_hash: passwordHash, updated_at: now }))
      .execute();
  }

  /** A new link's token; only its hash is kept. */
  async createResetLink(creatorId: string, lifetimeMs: number): Promise<string> {
    const token = newSecret();
    const now = this.clock.now();
    // Links of this account that can no longer work go when a new one is made.
    await this.db
      .deleteFrom('password_resets')
      .where('creator_id', '=', creatorId)
      .where((eb) => eb.or([eb('used_at', 'is not', null), eb('expires_at', '<=', now)]))
      .execute();
    await this.db
      .insertInto('password_resets')
      .values({
        token_hash: secretHash(token),
        creator_id: creatorId,
        created_at: now,
        expires_at: now + lifetimeMs,
        used_at: null,
      })
      .execute();
    return token;
  }

  /** The creator a link is for, when it is unused and unexpired; nothing is spent. */
  async resetLinkCreator(token: unknown): Promise<string | undefined> {
    if (!looksLikeSecret(token)) return undefined;
    const row = await this.db
      .selectFrom('password_resets')
      .select('creator_id')
      .where('token_hash', '=', secretHash(token))
      .where('used_at', 'is', null)
      .where('expires_at', '>', this.clock.now())
      .executeTakeFirst();
    return row?.creator_id;
  }

  /**
   * Spends a link: the one statement that marks it used succeeds for one request only, so a link
   * replayed (or sent twice at once) sets no password. Every other open link of the creator is
   * spent with it. The creator's id, or undefined for a link unknown, used or expired.
   */
  async spendResetLink(token: unknown): Promise<string | undefined> {
    if (!looksLikeSecret(token)) return undefined;
    const now = this.clock.now();
    const creatorId = await this.resetLinkCreator(token);
    if (creatorId === undefined) return undefined;
    const spent = await this.db
      .updateTable('password_resets')
      .set({ used_at: now })
      .where('token_hash', '=', secretHash(token))
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    if (Number(spent.numUpdatedRows) !== 1) return undefined;
    await this.db
      .updateTable('password_resets')
      .set({ used_at: now })
      .where('creator_id', '=', creatorId)
      .where('used_at', 'is', null)
      .execute();
    return creatorId;
  }
}
