import type { FastifyRequest } from 'fastify';
import { extractKey, type Principal } from '../core/auth.ts';
import { ApiError } from '../core/errors.ts';
import type { KeyStore } from '../core/keys.ts';
import type { AuthFailureLimits } from '../core/rate-limit.ts';

export type Authenticate = (request: FastifyRequest) => Promise<Principal>;

/** Who stands behind an OAuth access token, for the resource it was presented to. */
export interface TokenAuthority {
  principal(token: string, resource: 'mcp' | 'rest'): Promise<Principal>;
}

/**
 * The caller of a REST or MCP request: an API key (`sk_service_…`), or else an OAuth access token
 * when an authority for them is given. A refused credential counts against the client's address;
 * an address over its limit is refused before its credential is looked at.
 */
export function authenticator(keys: KeyStore, failures: AuthFailureLimits, tokens?: TokenAuthority): Authenticate {
  return async (request) => {
    failures.refuseIfBlocked(() => request.ip);
    try {
      const credential = extractKey(request.headers);
      if (tokens && !credential.startsWith('sk_')) {
        return await tokens.principal(credential, request.url.startsWith('/mcp') ? 'mcp' : 'rest');
      }
      return await keys.authenticate(credential);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'invalid_api_key') throw (await failures.fail(request.ip)) ?? err;
      throw err;
    }
  };
}
