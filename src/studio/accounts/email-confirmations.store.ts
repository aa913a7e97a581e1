import { ScopedStore } from '../../core/stores.ts';
import { looksLikeSecret, newSecret, secretHash } from './tokens.ts';

/** How long a confirmation link works: the mail may be read days later. */
export const CONFIRMATION_LINK_MS = 7 * 24 * 3600_000;

/**
 * Whether a creator's email address is theirs: a link mailed to it was opened and confirmed. The
 * address is where reset links go, so a typo at sign-up would lock the creator out for good.
 */
export class EmailConfirmationsStore extends ScopedStore {
  /** Whether `email` is the address the creator confirmed. */
  async isConfirmed(creatorId: string, email: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('confirmed_emails')
      .select('email')
      .where('creator_id', '=', creatorId)
      .executeTakeFirst();
    return row?.email === email;
  }

  /** A new link for `email`; the creator's earlier links stop working. Only its hash is kept. */
  async createLink(creatorId: string, email: string): Promise<string> {
    const token = newSecret();
    const now = this.clock.now();
    await this.db.deleteFrom('email_confirmations').where('creator_id', '=', creatorId).execute();
    await this.db
      .insertInto('email_confirmations')
      .values({
        token_hash: secretHash(token),
        creator_id: creatorId,
        email,
        created_at: now,
        expires_at: now + CONFIRMATION_LINK_MS,
      })
      .execute();
    return token;
  }

  /** What a working link would confirm; nothing is spent (mail scanners open links too). */
  async link(token: unknown): Promise<{ creatorId: string; email: string } | undefined> {
    if (!looksLikeSecret(token)) return undefined;
    const row = await this.db
      .selectFrom('email_confirmations')
      .innerJoin('creators', 'creators.id', 'email_confirmations.creator_id')
      .select(['email_confirmations.creator_id', 'email_confirmations.email'])
      .where('email_confirmations.token_hash', '=', secretHash(token))
      .where('email_confirmations.expires_at', '>', this.clock.now())
      // A link for an address the account no longer has confirms nothing.
      .whereRef('creators.email', '=', 'email_confirmations.email')
      .executeTakeFirst();
    return row && { creatorId: row.creator_id, email: row.email };
  }

  /** Confirms the address a working link names, and spends the creator's links. */
  async confirm(token: unknown): Promise<{ creatorId: string; email: string } | undefined> {
    const found = await this.link(token);
    if (!found) return undefined;
    const now = this.clock.now();
    await this.db
      .insertInto('confirmed_emails')
      .values({ creator_id: found.creatorId, email: found.email, confirmed_at: now })
      .onConflict((oc) => oc.column('creator_id').doUpdateSet({ email: found.email, confirmed_at: now }))
      .execute();
    await this.db.deleteFrom('email_confirmations').where('creator_id', '=', found.creatorId).execute();
    return found;
  }
}
