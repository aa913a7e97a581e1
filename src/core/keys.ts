import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { Database } from '../db/tables.ts';
import { generateKey, hashesMatch, hashKey, type KeyScope, looksLikeKey, type Principal, type Role } from './auth.ts';
import type { Clock } from './clock.ts';
import { ApiError } from './errors.ts';
import { newId } from './ids.ts';
import { countCache } from './work-meter.ts';

export interface KeySummary {
  keyId: string;
  name: string | null;
  creatorId: string;
  hint: string;
  scope: KeyScope;
  publish: boolean;
  role: Role;
  expiresAt: number | null;
  revokedAt: number | null;
  createdAt: number;
  lastUsedAt: number | null;
}

/** How often a key's last use is written back: not on every request. */
const LAST_USED_RESOLUTION_MS = 60_000;

interface CachedKey {
  principal: Principal;
  expiresAt: number | null;
  cachedAt: number;
}

/**
 * Recently authenticated keys, per store, by key hash. Revoking a key or deactivating a creator
 * through any store object of this process clears them at once; another process's change (the
 * admin command line) is seen within the cache's time to live.
 */
const principalCaches = new WeakMap<object, LRUCache<string, CachedKey>>();

function principalCache(db: object): LRUCache<string, CachedKey> {
  let cache = principalCaches.get(db);
  if (!cache) {
    cache = new LRUCache({ max: 10_000 });
    principalCaches.set(db, cache);
  }
  return cache;
}

/** Forgets every cached key of a store: after a revocation or a creator's deactivation. */
export function forgetCachedKeys(db: object): void {
  principalCaches.get(db)?.clear();
}

/** API keys: minted here, stored only as a hash, checked on every request. */
export class KeyStore {
  private readonly db: Kysely<Database>;
  private readonly clock: Clock;

  private readonly cacheMs: number;

  /** `cacheMs`: how long an authenticated key is trusted without reading the store again (0: never). */
  constructor(db: Kysely<Database>, clock: Clock, options: { cacheMs?: number } = {}) {
    this.db = db;
    this.clock = clock;
    this.cacheMs = options.cacheMs ?? 0;
  }

  async create(input: {
    creatorId: string;
    name?: string | null;
    scope: KeyScope;
    publish: boolean;
    role?: Role;
    expiresAt?: number | null;
  }): Promise<{ keyId: string; key: string }> {
    const { key, hash, hint } = generateKey();
    const keyId = newId('key');
    await this.db
      .insertInto('api_keys')
      .values({
        id: keyId,
        creator_id: input.creatorId,
        secret_hash: hash,
        hint,
        scope: input.scope,
        publish: input.publish ? 1 : 0,
        role: input.role ?? 'owner',
        expires_at: input.expiresAt ?? null,
        revoked_at: null,
        created_at: this.clock.now(),
        last_used_at: null,
        name: input.name ?? null,
      })
      .execute();
    return { keyId, key };
  }

  /** True when a key was revoked by this call; with `creatorId`, only a key of that creator (the studio's). */
  async revoke(keyId: string, creatorId?: string): Promise<boolean> {
    let update = this.db
      .updateTable('api_keys')
      .set({ revoked_at: this.clock.now() })
      .where('id', '=', keyId)
      .where('revoked_at', 'is', null);
    if (creatorId !== undefined) update = update.where('creator_id', '=', creatorId);
    const result = await update.executeTakeFirst();
    forgetCachedKeys(this.db);
    return Number(result.numUpdatedRows) > 0;
  }

  async list(creatorId: string): Promise<KeySummary[]> {
    const rows = await this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('creator_id', '=', creatorId)
      .orderBy('created_at')
      .execute();
    return rows.map((r) => ({
      keyId: r.id,
      name: r.name,
      creatorId: r.creator_id,
      hint: `…${r.hint}`,
      scope: r.scope,
      publish: r.publish === 1,
      role: r.role,
      expiresAt: r.expires_at,
      revokedAt: r.revoked_at,
      createdAt: r.created_at,
      lastUsedAt: r.last_used_at,
    }));
  }

  /** The caller behind a key, or the specification's 401 or 403. */
  async authenticate(key: string): Promise<Principal> {
    const invalid = () => new ApiError('invalid_api_key', 'This API key is unknown, revoked or expired.');
    if (!looksLikeKey(key)) throw invalid();
    const hash = hashKey(key);
    const now = this.clock.now();
    const cached = this.cacheMs > 0 ? principalCache(this.db).get(hash) : undefined;
    if (cached && now - cached.cachedAt < this.cacheMs && (cached.expiresAt === null || cached.expiresAt > now)) {
      countCache('auth_keys', true);
      return cached.principal;
    }
    if (this.cacheMs > 0) countCache('auth_keys', false);
    const row = await this.db
      .selectFrom('api_keys')
      .innerJoin('creators', 'creators.id', 'api_keys.creator_id')
      .select([
        'api_keys.id',
        'api_keys.creator_id',
        'api_keys.secret_hash',
        'api_keys.scope',
        'api_keys.publish',
        'api_keys.role',
        'api_keys.expires_at',
        'api_keys.revoked_at',
        'api_keys.last_used_at',
        'creators.active',
      ])
      .where('api_keys.secret_hash', '=', hash)
      .executeTakeFirst();
    if (!row || !hashesMatch(row.secret_hash, hash)) throw invalid();
    if (row.revoked_at !== null || (row.expires_at !== null && row.expires_at <= now)) throw invalid();
    if (row.active !== 1) {
      throw new ApiError('forbidden', 'The creator account behind this key is no longer active.');
    }
    if (row.last_used_at === null || now - row.last_used_at > LAST_USED_RESOLUTION_MS) {
      await this.db.updateTable('api_keys').set({ last_used_at: now }).where('id', '=', row.id).execute();
    }
    const principal: Principal = {
      keyId: row.id,
      creatorId: row.creator_id,
      scope: row.scope,
      publish: row.publish === 1,
      role: row.role,
    };
    if (this.cacheMs > 0) principalCache(this.db).set(hash, { principal, expiresAt: row.expires_at, cachedAt: now });
    return principal;
  }
}
