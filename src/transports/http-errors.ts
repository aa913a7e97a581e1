import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, logFailure, toApiError } from '../core/errors.ts';
import type { Log } from '../core/log.ts';
import { setRefusalHeaders } from './rate-limit-headers.ts';
import { drainRefusedBody } from './refused-body.ts';

// Not `import { STATUS_CODES } from 'node:http'`: an import of node:http reads every export of it,
// and its WebSocket getter loads Node's own copy of undici (some 30 ms of CPU at every start).
const { STATUS_CODES } = process.getBuiltinModule('node:http');

/** Sizes are binary (2 MB is 2 MiB), written as people read them. */
function sizeText(bytes: number): string {
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
}

/**
 * The limit the refused body went over: the route's own (a track-taking operation's REST endpoint
 * takes more than 2 MB; MCP messages never do, so a big input there is pointed at REST).
 */
function bodyTooLarge(request: FastifyRequest): ApiError {
  const limit = sizeText(request.routeOptions.bodyLimit ?? 2 * 1024 * 1024);
  const mcp = request.routeOptions.url === '/mcp';
  return new ApiError(
    'payload_too_large',
    mcp
      ? `The MCP message is over the ${limit} limit. Send larger input (a long GPX track) through the operation's ` +
          'REST endpoint, which takes up to 8 MB where the operation allows it, or send less at once.'
      : `The request body is over the ${limit} limit.`,
  );
}
/** Node's own bound on the request line and headers together (`--max-http-header-size`). */
const HEADER_LIMIT_TEXT = '16 KB';
export const SEND_JSON = '(body): send JSON with Content-Type: application/json';

/** Every error answer is the specification's envelope; the cause of a 500 is logged, not sent. */
export function sendError(request: FastifyRequest, reply: FastifyReply, err: unknown): FastifyReply {
  const apiError = toApiError(err, request.id);
  logFailure(request.log, err);
  request.refusal = apiError;
  setRefusalHeaders(reply, apiError);
  if (apiError.status === 401) {
    // RFC 6750: a key that was sent and refused is an invalid token; a missing one gets the bare challenge.
    reply.header('WWW-Authenticate', apiError.code === 'invalid_api_key' ? 'Bearer error="invalid_token"' : 'Bearer');
  }
  return reply.code(apiError.status).send(apiError.toBody(request.id));
}

/**
 * Fastify's own refusals (body parsing, the router's) in the envelope, with a status from the
 * specification's table. Also handles the router's errors that reach no route, so their answer
 * carries the request id header the onRequest hook did not get to set.
 */
export function sendFastifyError(
  err: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply | Promise<void> {
  if (err instanceof ApiError) return sendError(request, reply, err);
  reply.header('X-Request-Id', request.id);
  const e = err as { code?: string; statusCode?: number; message?: string };
  if (e.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || e.statusCode === 413) {
    // Answered once the rest of the body is read (within a bound), so that the client reads it.
    return drainRefusedBody(request, reply).then(() => {
      sendError(request, reply, bodyTooLarge(request));
    });
  }
  if (e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || e.statusCode === 415) {
    return sendError(request, reply, new ApiError('invalid_argument', SEND_JSON));
  }
  if (e.code === 'FST_ERR_BAD_URL') {
    return sendError(
      request,
      reply,
      new ApiError('invalid_argument', '(path): not valid percent-encoding; encode each path segment as UTF-8 (%XX)'),
    );
  }
  if (e.statusCode !== undefined && e.statusCode >= 400 && e.statusCode < 500) {
    return sendError(
      request,
      reply,
      new ApiError('invalid_argument', `(request): ${e.message ?? 'malformed request'}`),
    );
  }
  return sendError(request, reply, err);
}

/**
 * What Node's HTTP parser refuses before Fastify sees a request (headers over its limit, a
 * request not received in time, bytes that are not HTTP), answered in the envelope; the
 * connection is then closed, as Node does.
 */
export function clientErrorHandler(log: Log, requestTimeoutMs: number) {
  return (err: Error & { code?: string }, socket: Socket): void => {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    let apiError: ApiError;
    if (err.code === 'HPE_HEADER_OVERFLOW') {
      apiError = new ApiError(
        'payload_too_large',
        `The URL and headers are over the ${HEADER_LIMIT_TEXT} limit; send long input in a JSON body.`,
      );
    } else if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      apiError = new ApiError(
        'invalid_argument',
        `(request): not received within ${requestTimeoutMs / 1000} s; send the headers and body without pausing`,
      );
    } else {
      apiError = new ApiError('invalid_argument', '(request): not a well-formed HTTP/1.1 request');
    }
    const requestId = randomUUID();
    log.debug({ err, requestId }, 'client error');
    if (socket.writable) {
      const body = JSON.stringify(apiError.toBody(requestId));
      socket.write(
        `HTTP/1.1 ${apiError.status} ${STATUS_CODES[apiError.status]}\r\n` +
          'Content-Type: application/json; charset=utf-8\r\n' +
          `Content-Length: ${Buffer.byteLength(body)}\r\n` +
          `X-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy();
  };
}

/**
 * The methods each route pattern answers, so that a known path called with another method gets
 * 405 with Allow instead of 404. Only consulted for requests no route took.
 */
export class RouteMethods {
  private readonly byPattern = new Map<string, { match: RegExp; methods: Set<string> }>();

  add(url: string, method: string | string[]): void {
    let entry = this.byPattern.get(url);
    if (!entry) {
      const source = url
        .split('/')
        .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('/');
      entry = { match: new RegExp(`^${source}$`), methods: new Set() };
      this.byPattern.set(url, entry);
    }
    for (const m of Array.isArray(method) ? method : [method]) entry.methods.add(m);
  }

  /** The methods a path is served with; empty when no route has that path. */
  allowed(path: string): string[] {
    const methods = new Set<string>();
    for (const { match, methods: own } of this.byPattern.values()) {
      if (match.test(path)) for (const m of own) methods.add(m);
    }
    return [...methods];
  }
}

/** A request no route took: 405 with Allow when the path is known under other methods, else 404. */
export function sendNoRoute(routes: RouteMethods, docsPath: string) {
  return (request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const path = request.url.split('?')[0] ?? request.url;
    const allowed = routes.allowed(path);
    // A route of this method that found nothing (an unknown asset) is a 404, not a wrong method.
    if (allowed.length > 0 && !allowed.includes(request.method)) {
      reply.header('Allow', allowed.join(', '));
      return sendError(
        request,
        reply,
        new ApiError(
          'invalid_argument',
          `(method): ${request.method} is not served on ${path}; use ${allowed.join(', ')}`,
          {
            status: 405,
          },
        ),
      );
    }
    return sendError(
      request,
      reply,
      new ApiError('not_found', `No endpoint ${request.method} ${path}; see ${docsPath}.`),
    );
  };
}
