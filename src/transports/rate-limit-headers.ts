import type { FastifyReply } from 'fastify';
import type { ApiError } from '../core/errors.ts';
import { policyField, type RateLimitOutcome, type RateLimitState, refusedPolicy } from '../core/rate-limit.ts';

/**
 * The RateLimit fields of draft-ietf-httpapi-ratelimit-headers, written here only: a success
 * shows the tighter of the policies it spent from, a 429 the policy that refused it (r=0), with
 * Retry-After beside them.
 */
function setFields(reply: FastifyReply, policies: string, shown: RateLimitState): void {
  reply.header('RateLimit-Policy', policies);
  reply.header('RateLimit', rateLimitField(shown));
}

/** The RateLimit field of the policy a success shows. */
export function rateLimitField(shown: RateLimitState): string {
  return `"${shown.policy}";r=${shown.remaining};t=${Math.ceil(shown.resetMs / 1000)}`;
}

export function setRateHeaders(reply: FastifyReply, rate: RateLimitOutcome): void {
  setFields(reply, rate.policiesField, rate.tightest);
}

/**
 * A rate_limited refusal's three headers. A refusal that is no policy's (a shutdown's 503) says only
 * when to try again; other errors are left alone.
 */
export function setRefusalHeaders(reply: FastifyReply, error: ApiError): void {
  if (error.retryAfterMs === undefined) return;
  const refused = refusedPolicy(error);
  if (refused) setFields(reply, policyField(refused), refused);
  reply.header('Retry-After', String(Math.ceil(error.retryAfterMs / 1000)));
}
