import type Provider from 'oidc-provider';
import type { Configuration } from 'oidc-provider';

type ProviderErrors = typeof import('oidc-provider')['errors'];

/** The hosts an `http:` redirect URI may name (OAuth 2.1 section 8.4.2: a native app's loopback). */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * Client metadata, registered or fetched as a metadata document: a redirect URI in plain `http:`
 * must come back to the client's own machine. Anywhere else the code would cross the network in
 * the clear (OAuth 2.1 requires TLS for every other redirect URI). oidc-provider answers the
 * refusal as `invalid_redirect_uri` because the description names `redirect_uris`.
 */
export function redirectUriPolicy(errors: ProviderErrors): NonNullable<Configuration['extraClientMetadata']> {
  return {
    properties: ['redirect_uris'],
    validator(_ctx, key, value) {
      if (key !== 'redirect_uris' || !Array.isArray(value)) return;
      for (const uri of value) {
        const url = typeof uri === 'string' ? URL.parse(uri) : null;
        if (url?.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname)) {
          throw new errors.InvalidClientMetadata(
            `redirect_uris must use https, except for a loopback address (127.0.0.1, [::1] or localhost): ${url.href}`,
          );
        }
      }
    },
  };
}

/**
 * The provider's own pages (an authorization error, its 404) get the studio's lock-down: no script
 * but what the provider hashes itself (its form_post page adds its script's hash to `script-src`),
 * no framing, no base tag.
 */
const PAGE_POLICY = "default-src 'none'; script-src; base-uri 'none'; frame-ancestors 'none'";

/** What authorization server metadata says of OpenID Connect, which this server does not offer. */
const OPENID_ONLY_METADATA = [
  'claims_supported',
  'claim_types_supported',
  'claims_parameter_supported',
  'subject_types_supported',
  'id_token_signing_alg_values_supported',
  'end_session_endpoint',
];

/**
 * Headers on every answer of the provider, and metadata that names only what is offered:
 * `openid` is a scope the library always lists (it needs `claims.openid`), never granted here.
 */
export function guardProviderAnswers(provider: Provider): void {
  provider.use(async (ctx, next) => {
    ctx.set('Content-Security-Policy', PAGE_POLICY);
    ctx.set('X-Frame-Options', 'DENY');
    ctx.set('X-Content-Type-Options', 'nosniff');
    await next();
    if (ctx.oidc?.route !== 'discovery' || typeof ctx.body !== 'object' || ctx.body === null) return;
    const metadata = ctx.body as Record<string, unknown>;
    for (const name of OPENID_ONLY_METADATA) delete metadata[name];
    if (Array.isArray(metadata.scopes_supported)) {
      metadata.scopes_supported = metadata.scopes_supported.filter((scope) => scope !== 'openid');
    }
  });
}
