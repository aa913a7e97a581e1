import { randomBytes } from 'node:crypto';

/** Opaque, URL-safe, unguessable ids: a short prefix per kind and 96 random bits. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('base64url')}`;
}
