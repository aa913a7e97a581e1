import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Runtime } from '../core/invoke.ts';
import type { Urls } from '../core/operation.ts';
import type { PublicPages } from '../core/resource.ts';
import { COMPRESS_MIN_BYTES, sendBody, writeBody } from './compression.ts';
import { sendError } from './http-errors.ts';
import { matches } from './public-files.ts';

const HTML = 'text/html; charset=utf-8';

/** Headers every answer of a public page carries, found or not. */
function pageHeaders(reply: FastifyReply, pages: PublicPages, urls: Urls): FastifyReply {
  return reply
    .header('Content-Security-Policy', pages.contentSecurityPolicy(urls))
    .header('X-Content-Type-Options', 'nosniff')
    .header('Referrer-Policy', 'strict-origin-when-cross-origin');
}

/**
 * The page's address made from its route and the parameters the router matched, each encoded:
 * never from the request target, which may be absolute-form (`GET http://evil.example/g/a/b/`)
 * or hold `//` and `\`, and would make this cacheable redirect lead to another site.
 */
function pathOf(pattern: string, params: Record<string, string>): string {
  return pattern.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
}

/** The query of a request target, `?` included, or nothing: after the `?` nothing can change the host. */
function queryOf(target: string): string {
  const at = target.indexOf('?');
  return at === -1 ? '' : target.slice(at);
}

/**
 * HTML pages anyone may open (the sales page buyers see), each resource's under its own route:
 * GET and HEAD, an ETag answered with 304 when the browser has the page already, a short cache
 * lifetime, and the same small not-found page for every address that names nothing on sale.
 */
export function registerPublicPages(app: FastifyInstance, all: readonly PublicPages[], runtime: Runtime): void {
  const scope = { db: runtime.db, clock: runtime.clock, dialect: runtime.dialect };
  // Pages only read, outside any transaction: one set of stores on the shared connection serves
  // every request (a store holds nothing but its scope and the app's caches; `urls` is the
  // runtime's, set at listen).
  const reader = { stores: runtime.stores(scope), urls: runtime.urls, caches: runtime.caches };
  for (const pages of all) {
    const cacheControl = `public, max-age=${pages.maxAgeSeconds}`;
    app.get(pages.path, { config: { transport: 'page' } }, async (request, reply) => {
      try {
        const page = await pages.find(request.params as Record<string, string>, reader);
        pageHeaders(reply, pages, runtime.urls);
        if (!page) {
          // Not cached: the page may go on sale a moment later.
          reply.code(404).header('Cache-Control', 'no-cache');
          return sendBody(request, reply, pages.notFound, HTML);
        }
        reply.header('ETag', page.etag).header('Cache-Control', cacheControl);
        if (matches(request.headers['if-none-match'], page.etag)) {
          // As the full answer would (RFC 9110: a 304 carries the Vary its 200 would).
          if (page.html.length >= COMPRESS_MIN_BYTES) reply.header('Vary', 'Accept-Encoding');
          return reply.code(304).send();
        }
        // Written straight to the socket, as the raw baseline writes its bytes: the page is served
        // to every buyer, and Fastify's send path has nothing to add to a finished Buffer.
        reply.hijack();
        await writeBody(
          reply.raw,
          200,
          { ...(reply.getHeaders() as Record<string, string>), 'content-type': HTML },
          page.html,
        );
        return reply;
      } catch (err) {
        return sendError(request, reply, err);
      }
    });
    // A trailing slash (typed, or added by a link shortener) leads to the one address of the page.
    app.get(`${pages.path}/`, { config: { transport: 'page' } }, (request, reply) => {
      const location = pathOf(pages.path, request.params as Record<string, string>) + queryOf(request.url);
      return reply.header('Cache-Control', cacheControl).redirect(location, 301);
    });
  }
}
