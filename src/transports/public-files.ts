import type { FastifyInstance } from 'fastify';
import { ApiError } from '../core/errors.ts';
import type { Runtime } from '../core/invoke.ts';
import type { PublicFiles } from '../core/resource.ts';
import { sendError } from './http-errors.ts';

/** A name is written once and never rewritten, so what it names may be cached for good. */
const FOREVER = 'public, max-age=31536000, immutable';

/** True when an If-None-Match header names this ETag (or `*`). */
export function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

/**
 * Files served to anyone without a key (the photos buyers see), under each resource's prefix: by
 * unguessable names, cached for good, with an ETag so a revalidation costs a 304.
 */
export function registerPublicFiles(app: FastifyInstance, all: readonly PublicFiles[], runtime: Runtime): void {
  // Files are only read, outside any transaction: one set of stores on the shared connection serves every request.
  const reader = {
    services: runtime.services,
    stores: runtime.stores({ db: runtime.db, clock: runtime.clock, dialect: runtime.dialect }),
  };
  for (const files of all) {
    app.get(`${files.prefix}/:name`, { config: { transport: 'file' } }, async (request, reply) => {
      const { name } = request.params as { name: string };
      try {
        const file = await files.open(name, reader);
        if (!file) throw new ApiError('not_found', `No file ${files.prefix}/${name}.`);
        reply.header('ETag', file.etag).header('Cache-Control', FOREVER);
        if (matches(request.headers['if-none-match'], file.etag)) {
          file.stream.destroy();
          return reply.code(304).send();
        }
        // nosniff: a file is served only as the image type it was stored as.
        return reply
          .header('X-Content-Type-Options', 'nosniff')
          .header('Content-Length', String(file.size))
          .type(file.contentType)
          .send(file.stream);
      } catch (err) {
        return sendError(request, reply, err);
      }
    });
  }
}
