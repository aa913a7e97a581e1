import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../core/errors.ts';
import { sendError } from './http-errors.ts';

/** How long a client refused during shutdown waits before it tries again (another instance, or this one restarted). */
const RETRY_AFTER_MS = 1000;

/**
 * What a shutdown does to requests: those still arriving are refused, those still sending their body
 * are cut, and those received finish. A client that stalls mid-body would otherwise hold the process
 * for the whole grace period; one that sent everything has work under way that must not be lost.
 */
export class Shutdown {
  /** Set first: /readyz answers 503 so that load balancers stop sending, while requests are still taken. */
  notReady = false;
  closing = false;
  private readonly inFlight = new Set<IncomingMessage>();

  track(request: IncomingMessage): void {
    // One without a body sent all of it with its headers: nothing to cut, and most requests (every
    // GET) then cost no listener and no set entry.
    const { headers } = request;
    if (headers['transfer-encoding'] === undefined && (headers['content-length'] ?? '0') === '0') return;
    // Gone already (a body read before Fastify, cut short): its close has passed, nothing to cut.
    if (request.destroyed) return;
    this.inFlight.add(request);
    request.once('close', () => this.inFlight.delete(request));
  }

  /** From now on new requests are refused; a request whose body has not all arrived is cut. */
  begin(): void {
    this.closing = true;
    for (const request of this.inFlight) {
      // `complete`: the parser has read the whole message, body included.
      if (!request.complete) request.destroy();
    }
  }
}

/** A request that arrived after shutdown began: the envelope, with when and where to try again. */
export function refuseWhileClosing(request: FastifyRequest, reply: FastifyReply): void {
  if (request.raw.httpVersionMajor < 2) reply.header('Connection', 'close');
  sendError(
    request,
    reply,
    // The specification's code for "wait, then send it again"; 503 tells proxies to try another instance.
    new ApiError(
      'rate_limited',
      'This instance is shutting down and takes no new requests. Send the request again after retryAfterMs: ' +
        'another instance, or this one restarted, will answer.',
      { retryAfterMs: RETRY_AFTER_MS, status: 503 },
    ),
  );
}
