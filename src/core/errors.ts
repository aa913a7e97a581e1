import { storeUnavailable } from '../db/unavailable.ts';
import type { Log } from './log.ts';

/**
 * The one catalogue of error codes: status and when each is answered. The drift test checks that
 * every code here is documented in the specification and the authoring guide, and no other.
 */
export const errorCatalogue = {
  invalid_argument: {
    status: 400,
    when: 'a required field is missing, a field is unknown, or a value has the wrong type',
  },
  invalid_request: {
    status: 400,
    when: 'a writer refused a well-shaped value; the message says what would be accepted',
  },
  unauthenticated: { status: 401, when: 'no key was sent' },
  invalid_api_key: { status: 401, when: 'the key is unknown, revoked or expired' },
  api_scope_required: { status: 403, when: 'the key lacks the scope the operation needs' },
  forbidden: {
    status: 403,
    when: 'the creator account is no longer active (on /mcp also: a host or origin not allowed)',
  },
  not_found: { status: 404, when: 'the id does not exist or belongs to another creator' },
  stale_editor: { status: 409, when: 'the row changed after the expectedUpdatedAt sent' },
  agreement_outdated: { status: 409, when: 'the creator has not accepted the current creator agreement' },
  guide_sold: { status: 409, when: 'the guide has buyers, so its spots cannot be deleted' },
  not_publishable: { status: 409, when: 'open publish gates block the publish; details.blocking lists them' },
  payload_too_large: { status: 413, when: 'the request body is over its size limit' },
  rate_limited: { status: 429, when: 'over a rate limit; retryAfterMs says when to try again' },
  internal_error: { status: 500, when: 'an unexpected failure; the cause is logged, not shown' },
} as const;

export type ErrorCode = keyof typeof errorCatalogue;

export interface ErrorBody {
  error: {
    code: ErrorCode;
    message: string;
    /** The request's id, so that one line quoted to support finds its log entries. */
    requestId?: string;
    retryAfterMs?: number;
    details?: Record<string, unknown>;
  };
}

interface ErrorExtra {
  retryAfterMs?: number;
  details?: Record<string, unknown>;
  /**
   * An HTTP status other than the code's, for refusals HTTP itself defines (405 with Allow):
   * docs/decisions/transports.md lists each.
   */
  status?: number;
}

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly retryAfterMs: number | undefined;
  readonly details: Record<string, unknown> | undefined;
  readonly status: number;

  constructor(code: ErrorCode, message: string, extra: ErrorExtra = {}) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.retryAfterMs = extra.retryAfterMs;
    this.details = extra.details;
    this.status = extra.status ?? errorCatalogue[code].status;
  }

  toBody(requestId?: string): ErrorBody {
    const error: ErrorBody['error'] = { code: this.code, message: this.message };
    if (requestId !== undefined) error.requestId = requestId;
    if (this.retryAfterMs !== undefined) error.retryAfterMs = this.retryAfterMs;
    if (this.details !== undefined) error.details = this.details;
    return { error };
  }
}

/** A writer's refusal of a well-shaped value, naming the field it refuses. */
export function refuse(path: string, sentence: string): ApiError {
  return new ApiError('invalid_request', `${path}: ${sentence}`, { details: { path } });
}

export function notFound(what: string, id: string): ApiError {
  return new ApiError('not_found', `No ${what} with id ${JSON.stringify(id)}.`);
}

/** What callers see of an unexpected failure: never its cause. */
export function internalError(requestId: string): ApiError {
  return new ApiError(
    'internal_error',
    `Something went wrong on our side. Quote request id ${requestId} if it persists.`,
  );
}

/** How long a caller told that the store is away waits before trying again. */
const STORE_RETRY_AFTER_MS = 2000;

/**
 * The store is away for now (restarting, unreachable, past its deadline, locked): the answer a
 * shutdown gives too, 503 `rate_limited` with when to try again, so that clients and proxies retry.
 */
export function storeUnavailableError(): ApiError {
  return new ApiError(
    'rate_limited',
    'The database is not answering right now (restarting, unreachable or overloaded). Send the request again ' +
      'after retryAfterMs. A write answered this way may or may not have been saved: read before writing it again.',
    { retryAfterMs: STORE_RETRY_AFTER_MS, status: 503, details: { unavailable: 'store' } },
  );
}

export function toApiError(err: unknown, requestId: string): ApiError {
  if (err instanceof ApiError) return err;
  return storeUnavailable(err) ? storeUnavailableError() : internalError(requestId);
}

/** Logs a failure that is no ApiError: an outage of the store as a warning, anything else as an error. */
export function logFailure(log: Log, err: unknown, fields: Record<string, unknown> = {}): void {
  if (err instanceof ApiError) return;
  if (storeUnavailable(err)) log.warn({ ...fields, err: (err as Error).message }, 'the store is unavailable');
  else log.error({ ...fields, err }, 'unexpected failure');
}
