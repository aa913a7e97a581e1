import type Provider from 'oidc-provider';
import type { Principal } from '../../core/auth.ts';
import { ApiError } from '../../core/errors.ts';
import type { Runtime } from '../../core/invoke.ts';
import { announceRevocation } from '../../db/coordination.ts';
import type { GuardOptions } from '../../resources/links/index.ts';
import { guardedMetadataFetch } from './metadata-fetch.ts';
import { createProvider, OAUTH_SCOPES, type Resources } from './provider.ts';

export type ResourceName = keyof Resources;

/** Where each protected resource's metadata (RFC 9728) lives, below the service's address. */
export const RESOURCE_METADATA_PATHS: Record<ResourceName, string> = {
  mcp: '/.well-known/oauth-protected-resource/mcp',
  rest: '/.well-known/oauth-protected-resource/api/v1',
};

/** Use of an authorization is written at most this often. */
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * The service as its own authorization server (panva's oidc-provider, built on first use, once
 * the public address is known) and the resource side: which access token acts for whom, on
 * which resource, with which scopes.
 */
export class OAuthServer {
  private readonly runtime: Runtime;
  private readonly fetch: ReturnType<typeof guardedMetadataFetch>;
  private built: Promise<Provider> | undefined;
  private callback: ReturnType<Provider['callback']> | undefined;
  private readonly lastWritten = new Map<string, number>();

  constructor(runtime: Runtime, guard: Partial<GuardOptions> = {}) {
    this.runtime = runtime;
    this.fetch = guardedMetadataFetch(guard);
  }

  get issuer(): string {
    return this.runtime.urls.publicUrl;
  }

  resources(): Resources {
    return { mcp: `${this.issuer}/mcp`, rest: `${this.issuer}/api/v1` };
  }

  metadataUrl(resource: ResourceName): string {
    return `${this.issuer}${RESOURCE_METADATA_PATHS[resource]}`;
  }

  /** The protected resource metadata of one resource (RFC 9728). */
  resourceMetadata(resource: ResourceName) {
    return {
      resource: this.resources()[resource],
      authorization_servers: [this.issuer],
      scopes_supported: [...OAUTH_SCOPES],
      bearer_methods_supported: ['header'],
      resource_name: resource === 'mcp' ? 'Travel guides (MCP)' : 'Travel guides (REST API)',
      resource_documentation: `${this.issuer}/docs`,
    };
  }

  provider(): Promise<Provider> {
    this.built ??= createProvider({
      db: this.runtime.db,
      issuer: this.issuer,
      resources: this.resources(),
      fetch: this.fetch,
      proxy: this.issuer.startsWith('https:'),
    }).catch((err) => {
      this.built = undefined;
      throw err;
    });
    return this.built;
  }

  /** The provider's own request handler (Koa's), made once. */
  async handler(): Promise<ReturnType<Provider['callback']>> {
    const provider = await this.provider();
    this.callback ??= provider.callback();
    return this.callback;
  }

  /**
   * The caller behind an access token, for the resource it is presented to: refused (401
   * invalid_token) when unknown, expired, revoked, or issued for the other resource.
   */
  async principal(token: string, resource: ResourceName): Promise<Principal> {
    const provider = await this.provider();
    const found = await provider.AccessToken.find(token).catch(() => undefined);
    if (!found || found.isExpired || !found.accountId || !found.grantId) {
      throw new ApiError('invalid_api_key', 'This access token is unknown, revoked or expired: authorize again.');
    }
    const audience = [found.aud].flat();
    if (!audience.includes(this.resources()[resource])) {
      throw new ApiError(
        'invalid_api_key',
        `This access token was issued for another resource; ask for one with resource=${this.resources()[resource]}.`,
      );
    }
    // The authorization as the studio lists it, not only the token's row: a refresh that read its
    // token just before a disconnect may write a new one just after.
    const standing = await this.runtime.db
      .selectFrom('assistant_authorizations')
      .innerJoin('creators', 'creators.id', 'assistant_authorizations.creator_id')
      .select(['assistant_authorizations.revoked_at', 'creators.id', 'creators.active'])
      .where('assistant_authorizations.grant_id', '=', found.grantId)
      .executeTakeFirst();
    if (!standing || standing.revoked_at !== null || standing.id !== found.accountId) {
      throw new ApiError('invalid_api_key', 'This assistant was disconnected in the studio: authorize again.');
    }
    if (standing.active !== 1) {
      throw new ApiError('forbidden', 'The creator account behind this authorization is no longer active.');
    }
    await this.touch(found.grantId);
    const scopes = new Set(String(found.scope ?? '').split(' '));
    const write = scopes.has('write');
    return {
      keyId: found.grantId,
      creatorId: found.accountId,
      scope: write ? 'write' : 'read',
      publish: write && scopes.has('publish'),
      role: 'owner',
    };
  }

  private async touch(grantId: string): Promise<void> {
    const now = this.runtime.clock.now();
    const last = this.lastWritten.get(grantId);
    if (last !== undefined && now - last < LAST_USED_RESOLUTION_MS) return;
    this.lastWritten.set(grantId, now);
    if (this.lastWritten.size > 10_000) this.lastWritten.clear();
    await this.runtime.db
      .updateTable('assistant_authorizations')
      .set({ last_used_at: now })
      .where('grant_id', '=', grantId)
      .execute();
  }

  /**
   * Ends an authorization: its grant and every token issued under it stop working at once, on
   * every instance (the revocation is announced with the commit, as a key's is).
   */
  async revoke(grantId: string): Promise<void> {
    await this.runtime.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('assistant_authorizations')
        .set({ revoked_at: this.runtime.clock.now() })
        .where('grant_id', '=', grantId)
        .where('revoked_at', 'is', null)
        .execute();
      await trx.deleteFrom('oauth_records').where('grant_id', '=', grantId).execute();
      await trx.deleteFrom('oauth_records').where('model', '=', 'Grant').where('id', '=', grantId).execute();
      await announceRevocation(trx);
    });
  }
}
