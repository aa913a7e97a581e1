import type { Kysely } from 'kysely';
import type Provider from 'oidc-provider';
import type { Configuration } from 'oidc-provider';
import type { fetch as undiciFetch } from 'undici';
import type { Database } from '../../db/tables.ts';
import { kyselyAdapter } from './adapter.ts';
import { DPOP_ALGS } from './dpop.ts';
import { guardProviderAnswers, redirectUriPolicy } from './provider-policy.ts';
import { providerSecrets } from './secrets.ts';

type OidcProvider = typeof import('oidc-provider');

export const OAUTH_SCOPES = ['read', 'write', 'publish'] as const;
export type OAuthScope = (typeof OAUTH_SCOPES)[number];

/** Short-lived access tokens; refresh tokens rotated on every use. */
export const ACCESS_TOKEN_TTL_S = 10 * 60;
const REFRESH_TOKEN_TTL_S = 30 * 24 * 3600;

/** Where each part of the authorization server answers (the issuer is the service's public address). */
export const OAUTH_ROUTES = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  registration: '/oauth/register',
  revocation: '/oauth/revoke',
  jwks: '/oauth/jwks',
  end_session: '/oauth/session/end',
  userinfo: '/oauth/userinfo',
  introspection: '/oauth/introspect',
  pushed_authorization_request: '/oauth/par',
} as const;

/** The two protected resources: a token issued for one is refused by the other (RFC 8707). */
export interface Resources {
  mcp: string;
  rest: string;
}

export interface ProviderOptions {
  db: Kysely<Database>;
  issuer: string;
  resources: Resources;
  /**
   * How client metadata documents are fetched: through the link checker's address guard (no
   * private, loopback or link-local address; bounded time and size).
   */
  fetch: typeof undiciFetch;
  /** Whether the issuer is https behind a proxy that sets X-Forwarded-Proto. */
  proxy: boolean;
}

/**
 * Every authorization request goes through the studio's page: it checks the studio's session (the
 * one authority on who is signed in) and asks the creator which scopes to grant, every time.
 */
function alwaysAsk(interactionPolicy: OidcProvider['interactionPolicy']) {
  const { Check } = interactionPolicy;
  const policy = interactionPolicy.base();
  policy
    .get('login')
    ?.checks.add(
      new Check('studio_session', 'the studio confirms who is signed in', (ctx) =>
        ctx.oidc.result?.login ? Check.NO_NEED_TO_PROMPT : Check.REQUEST_PROMPT,
      ),
    );
  // The creator's choice on the consent page is the answer, even when it grants fewer scopes than
  // were asked for (read without write): the library's own checks would ask again for the rest.
  const consent = policy.get('consent');
  for (const reason of ['op_scopes_missing', 'op_claims_missing', 'rs_scopes_missing']) consent?.checks.remove(reason);
  consent?.checks.add(
    new Check('studio_consent', 'the creator chooses the scopes on the consent page', (ctx) =>
      ctx.oidc.result?.consent ? Check.NO_NEED_TO_PROMPT : Check.REQUEST_PROMPT,
    ),
  );
  return policy;
}

/**
 * oidc-provider, with Koa and jose the largest package the service uses, is loaded here: by the
 * first OAuth request or access token, not by the start (most callers present an API key).
 */
export async function createProvider(options: ProviderOptions): Promise<Provider> {
  const [{ default: ProviderClass, errors, interactionPolicy }, secrets] = await Promise.all([
    import('oidc-provider'),
    providerSecrets(options.db),
  ]);
  const known = new Set([options.resources.mcp, options.resources.rest]);
  const configuration: Configuration = {
    adapter: kyselyAdapter(options.db),
    jwks: secrets.jwks as Configuration['jwks'],
    cookies: { keys: secrets.cookieKeys },
    routes: OAUTH_ROUTES,
    // Listed so clients may register and ask for them; what a token carries is the resource scopes
    // the creator granted on the consent page.
    scopes: [...OAUTH_SCOPES],
    claims: { openid: ['sub'] },
    responseTypes: ['code'],
    extraClientMetadata: redirectUriPolicy(errors),
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    },
    findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub }) }),
    interactions: {
      policy: alwaysAsk(interactionPolicy),
      url: (_ctx, interaction) => `/studio/oauth/${interaction.uid}`,
    },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      revocation: { enabled: true },
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      resourceIndicators: {
        enabled: true,
        // A client that names no resource gets a token for MCP, what assistants connect to.
        defaultResource: (_ctx, _client, oneOf) => oneOf ?? options.resources.mcp,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource) => {
          if (!known.has(resource)) throw new errors.InvalidTarget();
          return { scope: OAUTH_SCOPES.join(' '), accessTokenTTL: ACCESS_TOKEN_TTL_S, accessTokenFormat: 'opaque' };
        },
      },
      clientIdMetadataDocument: { enabled: true, ack: 'draft-02' },
      // Tokens are bound to the key of a client that sends a proof; /mcp and /api/v1 check the
      // proofs themselves (dpop.ts). No nonces: the iat window and the replay check bound a proof.
      dPoP: { enabled: true },
    },
    enabledJWA: { dPoPSigningAlgValues: DPOP_ALGS },
    // Refresh tokens for every client allowed the grant: assistants stay connected without
    // offline_access, which they do not know to ask for. Each use rotates the token.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    expiresWithSession: async () => false,
    ttl: {
      AccessToken: ACCESS_TOKEN_TTL_S,
      AuthorizationCode: 60,
      Interaction: 15 * 60,
      Session: 24 * 3600,
      Grant: REFRESH_TOKEN_TTL_S,
      RefreshToken: REFRESH_TOKEN_TTL_S,
    },
    fetch: (url, init) =>
      options.fetch(String(url), init as Parameters<typeof undiciFetch>[1]) as unknown as Promise<Response>,
    renderError: async (ctx, out) => {
      ctx.type = 'html';
      ctx.body = `<!doctype html><meta charset="utf-8"><title>Authorization failed</title><h1>The assistant could not be connected</h1><p>${escapeText(String(out.error))}: ${escapeText(String(out.error_description ?? ''))}</p>`;
    },
  };
  const provider = new ProviderClass(options.issuer, configuration);
  provider.proxy = options.proxy;
  guardProviderAnswers(provider);
  return provider;
}

function escapeText(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
