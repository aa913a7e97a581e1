import assert from 'node:assert/strict';

export interface HttpAnswer<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
}

/** One REST call with a key; the body is parsed JSON. */
export async function rest<T = any>(
  baseUrl: string,
  key: string | undefined,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<HttpAnswer<T>> {
  const init: RequestInit = { method, headers: { ...headers } };
  if (key !== undefined) (init.headers as Record<string, string>).authorization = `Bearer ${key}`;
  if (body !== undefined) {
    (init.headers as Record<string, string>)['content-type'] = 'application/json';
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
  }
  const res = await fetch(baseUrl + path, init);
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text === '' ? undefined : JSON.parse(text)) as T };
}

/**
 * The three headers every 429 carries, agreeing with its envelope: RateLimit-Policy names the
 * policy that refused, RateLimit shows it spent (r=0) until the wait Retry-After gives ends.
 */
export function assertRefusalHeaders(
  answer: HttpAnswer<{ error: { retryAfterMs?: number; details?: Record<string, unknown> } }>,
): void {
  const { retryAfterMs, details } = answer.body.error;
  assert.ok(retryAfterMs !== undefined && details, JSON.stringify(answer.body));
  const seconds = Math.ceil(retryAfterMs / 1000);
  assert.equal(answer.headers.get('retry-after'), String(seconds), 'Retry-After in whole seconds');
  assert.equal(answer.headers.get('ratelimit'), `"${details.policy}";r=0;t=${seconds}`);
  assert.equal(
    answer.headers.get('ratelimit-policy'),
    `"${details.policy}";q=${details.limit};w=${details.windowSeconds}`,
  );
}
