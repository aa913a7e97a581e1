import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RateLimits } from '../../core/rate-limit.ts';
import { setRefusalHeaders } from '../../transports/rate-limit-headers.ts';
import type { OAuthServer } from './oauth-server.ts';
import { RESOURCE_METADATA_PATHS } from './oauth-server.ts';

/**
 * The provider's metadata, served under RFC 8414's name only: OpenID Connect is not offered, so
 * its discovery address (the library's own path for the document) answers 404.
 */
const PROVIDER_METADATA_PATH = '/.well-known/openid-configuration';

/**
 * The authorization server's endpoints and metadata, and each protected resource's metadata.
 * oidc-provider reads its own bodies: in this scope Fastify parses none.
 */
export function registerOAuthRoutes(app: FastifyInstance, oauth: OAuthServer, rateLimits: RateLimits): void {
  for (const [resource, path] of Object.entries(RESOURCE_METADATA_PATHS) as [
    keyof typeof RESOURCE_METADATA_PATHS,
    string,
  ][]) {
    app.get(path, async (_request, reply) =>
      reply
        .header('Access-Control-Allow-Origin', '*')
        .header('Cache-Control', 'public, max-age=300')
        .send(oauth.resourceMetadata(resource)),
    );
  }
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    const handle = async (request: FastifyRequest, reply: FastifyReply, url?: string) => {
      const handler = await oauth.handler();
      reply.hijack();
      if (url !== undefined) request.raw.url = url;
      handler(request.raw, reply.raw);
    };
    scope.all('/oauth/*', (request, reply) => handle(request, reply));
    // Registration is open to anyone: each address registers a bounded number of clients an hour.
    scope.post('/oauth/register', async (request, reply) => {
      const refused = await rateLimits.refusalFor('registrations', request.ip);
      if (!refused) return handle(request, reply);
      setRefusalHeaders(reply, refused);
      // An OAuth endpoint answers in OAuth's error shape (RFC 7591 section 3.2.2), not the API's envelope.
      return reply.code(429).send({ error: 'rate_limited', error_description: refused.message });
    });
    scope.get('/.well-known/oauth-authorization-server', (request, reply) =>
      handle(request, reply, PROVIDER_METADATA_PATH),
    );
  });
}
