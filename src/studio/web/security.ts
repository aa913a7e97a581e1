import type { FastifyReply, FastifyRequest } from 'fastify';

/** Where a signed-in creator lands when no (acceptable) return address was given. */
export const HOME = '/studio/guides';
const PLACEHOLDER_ORIGIN = 'http://studio.invalid';

/**
 * A return address (`next`) that can only lead back into the studio or the authorization flow of
 * this service: a path, never a host (`//evil`, `/\\evil`, `https://…`), no control characters,
 * and inside /studio or /oauth once `..` and percent-encoding are resolved. Anything else: HOME.
 */
export function safeNext(value: unknown): string {
  if (typeof value !== 'string' || value.length > 2000 || !value.startsWith('/')) return HOME;
  if (value.startsWith('//') || value.includes('\\') || hasControlCharacter(value)) return HOME;
  let url: URL;
  try {
    url = new URL(value, PLACEHOLDER_ORIGIN);
  } catch {
    return HOME;
  }
  if (url.origin !== PLACEHOLDER_ORIGIN) return HOME;
  const inside =
    url.pathname === '/studio' || url.pathname.startsWith('/studio/') || url.pathname.startsWith('/oauth/');
  if (!inside || url.pathname.startsWith('/studio/sign-out')) return HOME;
  return url.pathname + url.search;
}

function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** The cookie names: `__Host-` where served over https (bound to this host, Secure, path /). */
export function cookieNames(secure: boolean): { session: string; csrf: string } {
  return secure ? { session: '__Host-studio', csrf: '__Host-studio-csrf' } : { session: 'studio', csrf: 'studio-csrf' };
}

/**
 * Whether a form post comes from the studio's own pages, by what the browser says of its origin.
 * Checked before the CSRF token, as a second lock: another site's page (or a sandboxed frame,
 * Origin `null`) is refused even when it somehow holds a token. A client that sends neither
 * header (a script, an old browser) still needs the token.
 */
export function fromOwnPages(request: FastifyRequest, studioOrigin: string): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return false;
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  return origin === studioOrigin || origin === `${request.protocol}://${request.host}`;
}

/** A 303 to a path of this service (a POST's answer: the browser then GETs it). */
export function seeOther(reply: FastifyReply, path: string): FastifyReply {
  return reply.header('Cache-Control', 'no-store').redirect(path, 303);
}

/** A form field as text; fields sent twice, or not at all, read as ''. */
export function field(body: unknown, name: string): string {
  if (typeof body !== 'object' || body === null || !Object.hasOwn(body, name)) return '';
  const value = (body as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : '';
}

/** A form field that may be sent several times (one per checked box or hidden id), as texts. */
export function fieldList(body: unknown, name: string): string[] {
  if (typeof body !== 'object' || body === null || !Object.hasOwn(body, name)) return [];
  const value = (body as Record<string, unknown>)[name];
  const values = Array.isArray(value) ? value : [value];
  return values.filter((v): v is string => typeof v === 'string');
}
