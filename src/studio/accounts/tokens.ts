import { hash, randomBytes } from 'node:crypto';

/** A secret for a cookie or a link: 256 random bits, URL-safe. Only its hash is ever stored. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** A fast hash is right for secrets of 256 random bits: nothing to guess. */
export function secretHash(secret: string): string {
  return hash('sha256', secret, 'base64url');
}

/** Secrets this module made: 43 URL-safe characters. Anything else is not looked up. */
export function looksLikeSecret(text: unknown): text is string {
  return typeof text === 'string' && /^[\w-]{43}$/.test(text);
}
