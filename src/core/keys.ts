import type { Kysely } from 'kysely';
import { announceRevocation } from '../db/coordination.ts';
import { onBehalfOf } from '../db/fair-turns.ts';
import { prepared } from '../db/prepared.ts';
import type { Database } from '../db/tables.ts';
import { generateKey, hashesMatch, hashKey, type KeyScope, looksLikeKey, type Principal, type Role } from './auth.ts';
import type { Clock } from './clock.ts';
import { CredentialCache, type ReadCredential, type RevocationWatch } from './credential-cache.ts';
import { ApiError } from './errors.ts';
import { newId } from './new-id.ts';

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

/** A key's row with its creator's standing: what authenticating reads, in one indexed query. */
interface KeyRow {
  id: string;
  creator_id: string;
  secret_hash: string;
  scope: KeyScope;
  publish: number;
  role: Role;
  expires_at: number | null;
  revoked_at: number | null;
  last_used_at: number | null;
  active: number;
}

const keyByHash = prepared<KeyRow>('key by hash', (db) =>
  db
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
    .where('api_keys.secret_hash', '=', ''),
);

/** API keys: minted here, stored only as a hash, checked on every request. */
export class KeyStore {
  private readonly db: Kysely<Database>;
  private readonly clock: Clock;
  private readonly cache: CredentialCache<Principal>;

  /**
   * `cacheMs`: how long an authenticated key may be served from memory at most (0: never);
   * `revocations`: the store's watch, without which every call reads the store.
   */
  constructor(db: Kysely<Database>, clock: Clock, options: { cacheMs?: number; revocations?: RevocationWatch } = {}) {
    this.db = db;
    this.clock = clock;
    this.cache = new CredentialCache(options.revocations, clock, options.cacheMs ?? 0, 'auth_keys');
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

  /**
   * True when a key was revoked by this call; with `creatorId`, only a key of that creator (the
   * studio's). Every instance refuses it within a second: the announcement leaves with the
   * revocation's commit (in the caller's transaction, if any).
   */
  async revoke(keyId: string, creatorId?: string): Promise<boolean> {
    let update = this.db
      .updateTable('api_keys')
      .set({ revoked_at: this.clock.now() })
      .where('id', '=', keyId)
      .where('revoked_at', 'is', null);
    if (creatorId !== undefined) update = update.where('creator_id', '=', creatorId);
    const result = await update.executeTakeFirst();
    const revoked = Number(result.numUpdatedRows) > 0;
    if (revoked) await announceRevocation(this.db);
    return revoked;
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

  /**
   * The caller behind a key, or the specification's 401 or 403 (a rejected promise, never thrown).
   * A key held in memory is answered as it is, without a promise (CredentialCache.get).
   */
  authenticate(key: string): Principal | Promise<Principal> {
    if (!looksLikeKey(key)) return Promise.reject(invalidKey());
    const hash = hashKey(key);
    // Its creator is not known yet: the key stands for them in the queue for a store connection.
    return this.cache.get(hash, () => onBehalfOf(hash, () => this.read(hash)));
  }

  private async read(hash: string): Promise<ReadCredential<Principal>> {
    const now = this.clock.now();
    const [row] = await keyByHash(this.db, hash);
    if (!row || !hashesMatch(row.secret_hash, hash)) throw invalidKey();
    if (row.revoked_at !== null || (row.expires_at !== null && row.expires_at <= now)) throw invalidKey();
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
    return { value: principal, expiresAt: row.expires_at };
  }
}

function invalidKey(): ApiError {
  return new ApiError('invalid_api_key', 'This API key is unknown, revoked or expired.');
}
