import { ScopedStore } from '../../core/stores.ts';
import { looksLikeSecret, newSecret, secretHash } from './tokens.ts';

/** A session unused this long ends. */
export const SESSION_IDLE_MS = 7 * 24 * 3600_000;
/** No session lasts longer than this, used or not. */
export const SESSION_ABSOLUTE_MS = 30 * 24 * 3600_000;
/** Use of a session is written back at most this often: not on every page. */
const TOUCH_RESOLUTION_MS = 60_000;

export interface StudioSession {
  creatorId: string;
  createdAt: number;
  /** Its id as the store keeps it (the hash of the cookie's token): what the studio's calls are made by. */
  idHash: string;
}

/** Signed-in browsers, by the hash of their cookie's token. */
export class SessionsStore extends ScopedStore {
  /** A new session's token, for the cookie: made at every sign-in, never taken from the browser. */
  async create(creatorId: string): Promise<string> {
    const token = newSecret();
    const now = this.clock.now();
    // Ended sessions of this account go at its next sign-in: the table holds live sessions, give or take.
    await this.db
      .deleteFrom('studio_sessions')
      .where('creator_id', '=', creatorId)
      .where('expires_at', '<=', now)
      .execute();
    await this.db
      .insertInto('studio_sessions')
      .values({
        id_hash: secretHash(token),
        creator_id: creatorId,
        created_at: now,
        last_seen_at: now,
        expires_at: now + SESSION_IDLE_MS,
      })
      .execute();
    return token;
  }

  /** The live session a cookie names (of an active creator), its idle expiry pushed on; undefined otherwise. */
  async find(token: unknown): Promise<StudioSession | undefined> {
    if (!looksLikeSecret(token)) return undefined;
    const now = this.clock.now();
    const row = await this.db
      .selectFrom('studio_sessions')
      .innerJoin('creators', 'creators.id', 'studio_sessions.creator_id')
      .select([
        'studio_sessions.id_hash',
        'studio_sessions.creator_id',
        'studio_sessions.created_at',
        'studio_sessions.last_seen_at',
        'studio_sessions.expires_at',
        'creators.active',
      ])
      .where('studio_sessions.id_hash', '=', secretHash(token))
      .executeTakeFirst();
    if (row?.active !== 1) return undefined;
    const createdAt = Number(row.created_at);
    if (Number(row.expires_at) <= now || createdAt + SESSION_ABSOLUTE_MS <= now) return undefined;
    if (now - Number(row.last_seen_at) > TOUCH_RESOLUTION_MS) {
      await this.db
        .updateTable('studio_sessions')
        .set({ last_seen_at: now, expires_at: Math.min(now + SESSION_IDLE_MS, createdAt + SESSION_ABSOLUTE_MS) })
        .where('id_hash', '=', row.id_hash)
        .execute();
    }
    return { creatorId: row.creator_id, createdAt, idHash: row.id_hash };
  }

  async end(token: unknown): Promise<void> {
    if (!looksLikeSecret(token)) return;
    await this.db.deleteFrom('studio_sessions').where('id_hash', '=', secretHash(token)).execute();
  }

  /** Signs the creator out of every browser (a password change, "sign out everywhere"). */
  async endAll(creatorId: string): Promise<number> {
    const result = await this.db.deleteFrom('studio_sessions').where('creator_id', '=', creatorId).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
