import assert from 'node:assert/strict';
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

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

/** An answer as it came over the wire, and decoded. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The bytes as they came over the wire. */
  wire: Buffer;
  /** The bytes once decoded with the Content-Encoding the answer names. */
  text: string;
}

/** One call over node:http, which (unlike fetch) neither asks for nor decodes compression by itself. */
export function rawCall(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const wire = Buffer.concat(chunks);
        const encoding = res.headers['content-encoding'];
        const decoded = encoding === 'br' ? brotliDecompressSync(wire) : encoding === 'gzip' ? gunzipSync(wire) : wire;
        resolve({ status: res.statusCode ?? 0, headers: res.headers, wire, text: decoded.toString('utf8') });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}
