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

/**
 * A 401 from /mcp or the REST API names where to start authorizing (RFC 9728 section 5.1): the
 * protected resource metadata of the resource that refused.
 */
export function challengeWithResourceMetadata(app: FastifyInstance, oauth: OAuthServer): void {
  // A callback hook, not an async one: it runs on every answer and must cost no promise.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (reply.statusCode !== 401) return done(null, payload);
    const path = request.url;
    const resource = path.startsWith('/mcp') ? 'mcp' : path.startsWith('/api/v1/') ? 'rest' : undefined;
    if (resource) {
      const sent = reply.getHeader('www-authenticate');
      const challenge = typeof sent === 'string' && sent.startsWith('Bearer ') ? `${sent}, ` : 'Bearer ';
      reply.header('WWW-Authenticate', `${challenge}resource_metadata="${oauth.metadataUrl(resource)}"`);
    }
    done(null, payload);
  });
}
