import type Provider from 'oidc-provider';
import type { Principal, TokenPresentation } from '../../core/auth.ts';
import { ApiError } from '../../core/errors.ts';
import type { Runtime } from '../../core/invoke.ts';
import { announceRevocation } from '../../db/coordination.ts';
import type { GuardOptions } from '../../resources/links/index.ts';
import { checkBinding, DPOP_ALGS, DPOP_WINDOW_S, DpopRefusal } from './dpop.ts';
import { DpopProofsStore } from './dpop-proof.store.ts';
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
  private readonly dpopProofs: DpopProofsStore;

  constructor(runtime: Runtime, guard: Partial<GuardOptions> = {}) {
    this.runtime = runtime;
    this.dpopProofs = new DpopProofsStore(runtime.db);
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
      dpop_signing_alg_values_supported: DPOP_ALGS,
      dpop_bound_access_tokens_required: false,
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
   * invalid_token) when unknown, expired, revoked, issued for the other resource, or bound to a
   * DPoP key and not presented with a fresh proof of it.
   */
  async principal(presented: TokenPresentation, resource: ResourceName): Promise<Principal> {
    const provider = await this.provider();
    const found = await provider.AccessToken.find(presented.token).catch(() => undefined);
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
    await this.confirmBinding(found.jkt, presented);
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
    const scopes = new Set(String(found.scope ?? '').split(' '));
    if (!scopes.has('read')) {
      throw new ApiError(
        'api_scope_required',
        'This access token lacks the read scope, which every call needs: authorize again with scope "read".',
      );
    }
    await this.touch(found.grantId);
    const write = scopes.has('write');
    return {
      keyId: found.grantId,
      creatorId: found.accountId,
      scope: write ? 'write' : 'read',
      publish: write && scopes.has('publish'),
      role: 'owner',
    };
  }

  /**
   * A DPoP-bound token only with a proof of its key, made for this request and never taken before
   * by any instance. Proofs are stamped by the client's wall clock and checked against this one's,
   * as the authorization server checks them (not the service's clock, which tests set).
   */
  private async confirmBinding(jkt: string | undefined, presented: TokenPresentation): Promise<void> {
    const now = Date.now();
    const proof = await checkBinding(jkt, presented, now);
    if (!proof || jkt === undefined) return;
    if (!(await this.dpopProofs.firstUse(jkt, proof.jti, (proof.iat + DPOP_WINDOW_S) * 1000))) {
      throw new DpopRefusal(
        'invalid_dpop_proof',
        'The DPoP proof was used before: make a new proof, with a new jti, for every request.',
      );
    }
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
