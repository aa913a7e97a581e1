import type { FastifyRequest } from 'fastify';
import { extractKey, type Principal } from '../core/auth.ts';
import { ApiError } from '../core/errors.ts';
import type { KeyStore } from '../core/keys.ts';
import type { AuthFailureLimits } from '../core/rate-limit.ts';

export type Authenticate = (request: FastifyRequest) => Promise<Principal>;

/**
 * The caller of a REST or MCP request. A refused key counts against the client's address; an
 * address over its limit is refused before its key is looked at.
 */
export function authenticator(keys: KeyStore, failures: AuthFailureLimits): Authenticate {
  return async (request) => {
    failures.refuseIfBlocked(() => request.ip);
    try {
      return await keys.authenticate(extractKey(request.headers));
    } catch (err) {
      if (err instanceof ApiError && err.code === 'invalid_api_key') throw (await failures.fail(request.ip)) ?? err;
      throw err;
    }
  };
}
