import type { IncomingHttpHeaders } from 'node:http';
import { extractCredential, type Principal, type TokenPresentation } from '../core/auth.ts';
import { ApiError } from '../core/errors.ts';
import type { KeyStore } from '../core/keys.ts';
import type { AuthFailureLimits } from '../core/rate-limit.ts';

/**
 * What authentication reads of a request: a Fastify request has it, and so has a REST read answered
 * before Fastify routes it (rest-early.ts).
 */
export interface PresentedRequest {
  readonly ip: string;
  readonly headers: IncomingHttpHeaders;
  readonly url: string;
  readonly method: string;
}

/** The caller, or a rejected promise (never thrown); a key held in memory is answered without a promise. */
export type Authenticate = (request: PresentedRequest) => Principal | Promise<Principal>;

/** Who stands behind an OAuth access token, for the resource it was presented to. */
export interface TokenAuthority {
  /** The service's public address: what a DPoP proof names the request by. */
  readonly issuer: string;
  principal(presented: TokenPresentation, resource: 'mcp' | 'rest'): Promise<Principal>;
}

/**
 * The caller of a REST or MCP request: an API key (`sk_service_…`), or else an OAuth access token
 * when an authority for them is given. A refused credential counts against the client's address;
 * an address over its limit is refused before its credential is looked at.
 */
export function authenticator(keys: KeyStore, failures: AuthFailureLimits, tokens?: TokenAuthority): Authenticate {
  const refused = async (err: unknown, ip: string): Promise<never> => {
    if (err instanceof ApiError && err.code === 'invalid_api_key') throw (await failures.fail(ip)) ?? err;
    throw err;
  };
  return (request) => {
    try {
      failures.refuseIfBlocked(() => request.ip);
    } catch (err) {
      return Promise.reject(err);
    }
    try {
      const { value, scheme } = extractCredential(request.headers);
      if (tokens && !value.startsWith('sk_')) {
        const path = request.url.split('?')[0] as string;
        const presented = {
          token: value,
          scheme,
          proof: request.headers.dpop,
          method: request.method,
          url: tokens.issuer + path,
        };
        return tokens
          .principal(presented, path.startsWith('/mcp') ? 'mcp' : 'rest')
          .catch((err) => refused(err, request.ip));
      }
      if (scheme === 'dpop') {
        throw new ApiError(
          'invalid_api_key',
          'API keys are not bound to a DPoP key: send them as "Authorization: Bearer <API_KEY>".',
        );
      }
      const principal = keys.authenticate(value);
      return principal instanceof Promise ? principal.catch((err) => refused(err, request.ip)) : principal;
    } catch (err) {
      return refused(err, request.ip);
    }
  };
}
