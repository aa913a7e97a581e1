import assert from 'node:assert/strict';
import { ApiError, type ErrorCode, errorCatalogue } from '../../src/core/errors.ts';

/** What one operation call answered, over either transport. */
export interface Answer {
  ok: boolean;
  /** The HTTP status over REST; undefined over MCP. */
  status: number | undefined;
  body: any;
}

export function assertOk(a: Answer, status = 200): void {
  assert.equal(a.ok, true, JSON.stringify(a.body));
  if (a.status !== undefined) assert.equal(a.status, status);
}

/** What a refusal says beyond its code and the field its message starts with. */
export interface RefusalWords {
  /** The sentence matches it (what would be accepted). */
  hint?: RegExp;
  /** The details name the same path, as every refusal of input validation does. */
  pathInDetails?: boolean;
}

/**
 * The one refusal assertion, for an answer (`apiFor`'s, or a raw HTTP one from `rest`) or for an
 * error a rule throws (`thrown`): the error envelope alone, with this code, a message, and the
 * catalogue's status (over HTTP); with `path`, the message starts with "path: ".
 */
export function assertError(
  refusal: Answer | { status: number; body: unknown } | ApiError,
  code: ErrorCode,
  path?: string,
  { hint, pathInDetails = false }: RefusalWords = {},
): void {
  assert.ok(!(refusal instanceof Error) || refusal instanceof ApiError, `expected an ApiError, got ${String(refusal)}`);
  const a = answerOf(refusal);
  const where = path === undefined ? '' : ` at ${path}`;
  assert.equal(a.ok, false, `expected ${code}${where}, got success ${JSON.stringify(a.body)}`);
  const error = a.body?.error;
  assert.equal(error?.code, code, `${where} ${JSON.stringify(a.body)}`);
  assert.deepEqual(Object.keys(a.body), ['error'], 'the envelope alone');
  assert.ok(typeof error.message === 'string' && error.message.length > 0, 'a message');
  if (a.status !== undefined) assert.equal(a.status, errorCatalogue[code].status);
  if (path !== undefined) {
    assert.ok(
      error.message.startsWith(`${path}: `),
      `message should start with "${path}: ", got ${JSON.stringify(error.message)}`,
    );
  }
  if (pathInDetails) assert.equal(error.details?.path, path, JSON.stringify(error.details));
  if (hint) assert.match(error.message, hint);
}

/** What a refusal answered, whoever made it: an ApiError as the API would send it. */
function answerOf(refusal: Answer | { status: number; body: unknown } | ApiError): Answer {
  if (refusal instanceof ApiError) return { ok: false, status: refusal.status, body: refusal.toBody() };
  return 'ok' in refusal ? refusal : { ok: refusal.status < 300, status: refusal.status, body: refusal.body };
}

/**
 * An answer without the request id its error envelope quotes (different on every call), so that
 * two answers can be compared whole; checks the id is there.
 */
export function withoutRequestId<T>(body: T): T {
  const error = (body as { error?: unknown } | undefined)?.error;
  if (typeof error !== 'object' || error === null) return body;
  const { requestId, ...rest } = error as Record<string, unknown>;
  assert.equal(typeof requestId, 'string', `error.requestId in ${JSON.stringify(body)}`);
  return { ...body, error: rest };
}

/**
 * Each answer is 404 `not_found`, and all say the same once the id each asked for is set aside:
 * another creator's record is refused as a missing one is, telling a prober nothing.
 */
export function assertNotFoundAlike(answers: readonly (readonly [Answer, string])[]): void {
  const messages = new Set<string>();
  for (const [answer, id] of answers) {
    assertError(answer, 'not_found');
    messages.add(answer.body.error.message.replaceAll(id, 'X'));
  }
  assert.equal(messages.size, 1, [...messages].join(' | '));
}
