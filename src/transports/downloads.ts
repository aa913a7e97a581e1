import type { FastifyInstance } from 'fastify';
import { ApiError } from '../core/errors.ts';
import type { Runtime } from '../core/invoke.ts';
import type { AuthFailureLimits } from '../core/rate-limit.ts';
import type { PublicDownloads } from '../core/resource.ts';
import { sendError } from './http-errors.ts';
import { setRateHeaders } from './rate-limit-headers.ts';

/**
 * `attachment` with the name twice (RFC 6266): an ASCII fallback for old clients, and the exact
 * name percent-encoded as UTF-8, so quotes, slashes and emoji in a guide's name can neither break
 * the header nor become a path.
 */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\/%;]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * Files behind short-lived addresses (exports), each resource's under its prefix: GET only, never
 * stored by a browser or proxy, kept from leaking their address onward, and the same not_found for
 * a token made up, changed, expired or no longer its creator's. A token is the download's
 * credential, so it is limited as one: a download spends a call from the budgets of the key (or
 * assistant, or studio session) that asked for it and of its creator, before its file is written;
 * a token that opens nothing counts as a failed authentication of the client's address, and an
 * address past that limit is refused before its token is looked at.
 */
export function registerDownloads(
  app: FastifyInstance,
  all: readonly PublicDownloads[],
  runtime: Runtime,
  failures: AuthFailureLimits,
): void {
  const scope = { db: runtime.db, clock: runtime.clock, dialect: runtime.dialect };
  const reader = {
    stores: runtime.stores(scope),
    urls: runtime.urls,
    caches: runtime.caches,
    services: runtime.services,
    clock: runtime.clock,
  };
  for (const downloads of all) {
    app.get(`${downloads.prefix}/:token`, { config: { transport: 'file' } }, async (request, reply) => {
      reply.header('Cache-Control', 'private, no-store').header('Referrer-Policy', 'no-referrer');
      try {
        failures.refuseIfBlocked(() => request.ip);
        const { token } = request.params as { token: string };
        const opened = await downloads.open(token, reader);
        if (!opened) {
          throw (
            (await failures.fail(request.ip)) ??
            new ApiError('not_found', 'No such download: it expired or never existed. Ask for a new one.')
          );
        }
        setRateHeaders(reply, await runtime.rateLimits.consume({ keyId: opened.madeBy, creatorId: opened.creatorId }));
        const file = await opened.write();
        return reply
          .header('X-Content-Type-Options', 'nosniff')
          .header('Content-Disposition', contentDisposition(file.fileName))
          .type(file.contentType)
          .send(file.body);
      } catch (err) {
        return sendError(request, reply, err);
      }
    });
  }
}
