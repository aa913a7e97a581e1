import cors, { type FastifyCorsOptions } from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import { API_PREFIX } from './rest.ts';

/** What a browser script may read of an answer besides the simple headers. */
const EXPOSED_HEADERS = ['X-Request-Id', 'RateLimit', 'RateLimit-Policy', 'Retry-After', 'Location'];

/**
 * CORS for the REST API, for browser-based clients on the origins of CORS_ORIGINS; off when it is
 * empty (nothing is registered, so requests pay nothing). /mcp stays out: its Host and Origin
 * guard (MCP_ALLOWED_HOSTS) is the DNS-rebinding defence, and its clients are not browser pages.
 * Keys travel in the Authorization header, never cookies, so credentials are not allowed.
 */
export function registerCors(app: FastifyInstance, origins: string[]): void {
  if (origins.length === 0) return;
  const api: FastifyCorsOptions = {
    origin: origins.includes('*') ? '*' : origins,
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: 600,
    // A bare OPTIONS (no Origin) is not a preflight: answer it plainly rather than with a text 400.
    strictPreflight: false,
  };
  const off: FastifyCorsOptions = { origin: false };
  app.register(cors, {
    delegator: (request, done) => {
      const url = request.url;
      const underApi =
        url.startsWith(API_PREFIX) &&
        (url.length === API_PREFIX.length || '/?'.includes(url.charAt(API_PREFIX.length)));
      done(null, underApi ? api : off);
    },
  });
}
