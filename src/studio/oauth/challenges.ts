import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { OperationScope } from '../../core/auth.ts';
import type { ApiError } from '../../core/errors.ts';
import { DPOP_ALGS, DpopRefusal } from './dpop.ts';
import type { OAuthServer, ResourceName } from './oauth-server.ts';
import { OAUTH_SCOPES } from './provider.ts';

/** The scopes a token holds to call an operation of this scope: write comes with read, publish with write. */
export function scopesFor(scope: OperationScope): readonly string[] {
  return OAUTH_SCOPES.slice(0, OAUTH_SCOPES.indexOf(scope) + 1);
}

/** A refusal from /mcp or /api/v1, as its challenge is built from it. */
export interface Refused {
  status: number;
  refusal: ApiError | null;
  resource: ResourceName;
  /** What the request needs: a REST route's operation scope; /mcp's are below. */
  scope: OperationScope | undefined;
  /** Whether the credential came with the DPoP scheme. */
  dpop: boolean;
  metadataUrl: string;
}

/**
 * The `WWW-Authenticate` challenge of a refusal (RFC 6750, RFC 9449, RFC 9728, MCP 2025-11-25):
 * on 401, Bearer (the error when a credential was refused, where to start authorizing, the scopes
 * to ask for) then DPoP (its error when the refusal is about DPoP, and the algorithms it takes);
 * on 403 for a missing scope, insufficient_scope with the scopes the request needs. Bearer comes
 * first: the 1.x MCP client reads only a challenge that starts with it.
 */
export function challengeOf(refused: Refused): string | undefined {
  const { refusal, resource, scope, metadataUrl } = refused;
  if (refused.status === 401) {
    // /mcp's tools use every scope: the creator narrows them on the consent page.
    const scopes = resource === 'mcp' || scope === undefined ? OAUTH_SCOPES : scopesFor(scope);
    const error = refusal?.code === 'invalid_api_key' ? 'error="invalid_token", ' : '';
    const dpopError = refusal instanceof DpopRefusal ? `error="${refusal.challengeError}", ` : '';
    return (
      `Bearer ${error}resource_metadata="${metadataUrl}", scope="${scopes.join(' ')}", ` +
      `DPoP ${dpopError}algs="${DPOP_ALGS.join(' ')}"`
    );
  }
  if (refused.status === 403 && refusal?.code === 'api_scope_required') {
    // Over HTTP, /mcp needs read; the scope of a tool is its call's answer, inside an HTTP 200.
    const scopes = resource === 'mcp' || scope === undefined ? scopesFor('read') : scopesFor(scope);
    const scheme = refused.dpop ? 'DPoP' : 'Bearer';
    return `${scheme} error="insufficient_scope", scope="${scopes.join(' ')}", resource_metadata="${metadataUrl}"`;
  }
  return undefined;
}

function resourceOf(request: FastifyRequest): ResourceName | undefined {
  const path = request.url;
  return path.startsWith('/mcp') ? 'mcp' : path.startsWith('/api/v1/') ? 'rest' : undefined;
}

/**
 * Every 401 and scope refusal from /mcp or the REST API says how to get through: the challenge
 * above, built here from the refusal so that the refusals keep coming from one place.
 */
export function challengeOnRefusal(app: FastifyInstance, oauth: OAuthServer): void {
  // A callback hook, not an async one: it runs on every answer and must cost no promise.
  app.addHook('onSend', (request, reply, payload, done) => {
    const status = reply.statusCode;
    if (status !== 401 && status !== 403) return done(null, payload);
    const resource = resourceOf(request);
    if (resource) {
      const challenge = challengeOf({
        status,
        refusal: request.refusal,
        resource,
        scope: request.routeOptions.config.scope,
        dpop: /^DPoP\s/i.test(request.headers.authorization ?? ''),
        metadataUrl: oauth.metadataUrl(resource),
      });
      if (challenge) reply.header('WWW-Authenticate', challenge);
    }
    done(null, payload);
  });
}
