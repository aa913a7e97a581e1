import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { OAuthServer } from './oauth-server.ts';
import { RESOURCE_METADATA_PATHS } from './oauth-server.ts';

/** The paths oidc-provider answers itself: its endpoints, and its metadata under both names. */
const PROVIDER_PATHS = ['/oauth/*', '/.well-known/openid-configuration'];

/**
 * The authorization server's endpoints and metadata, and each protected resource's metadata.
 * oidc-provider reads its own bodies: in this scope Fastify parses none.
 */
export function registerOAuthRoutes(app: FastifyInstance, oauth: OAuthServer): void {
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
    for (const path of PROVIDER_PATHS) scope.all(path, (request, reply) => handle(request, reply));
    // RFC 8414's name for the same document (MCP clients look here first).
    scope.get('/.well-known/oauth-authorization-server', (request, reply) =>
      handle(request, reply, '/.well-known/openid-configuration'),
    );
  });
}
