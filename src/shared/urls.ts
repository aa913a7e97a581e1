import { z } from 'zod';
import { forEachString } from '../core/walk.ts';

function parseUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/**
 * An http or https address; plain http is accepted and flagged by the write's warnings. The text
 * itself must start with the scheme and `//`: the URL parser also takes "http:example.com" or
 * " https://…", which apps would not open as written and which the http warning would miss.
 */
export const webUrlSchema = z
  .string()
  .max(2000)
  .refine(
    (s) => {
      const url = /^https?:\/\//i.test(s) ? parseUrl(s) : undefined;
      return url !== undefined && (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
    },
    { message: 'must be a web address starting with https:// (or http://)' },
  )
  .describe('A web address, https (http is accepted with a warning)');

/** Only https. */
export const httpsUrlSchema = z
  .string()
  .max(2000)
  .refine((s) => /^https:\/\//i.test(s) && parseUrl(s)?.protocol === 'https:', {
    message: 'must be a web address starting with https://',
  })
  .describe('A web address starting with https://');

/**
 * Where a plain http link sits in a write's input, as warnings, so every resource that carries
 * links warns the same way. Fields that hold a link are named `url`, `…Url` or `website`.
 */
export function plainHttpWarnings(input: unknown): string[] {
  const found: string[] = [];
  forEachString(input, (text, field, path) => {
    const isLink = field === 'website' || field === 'url' || field.endsWith('Url');
    if (isLink && /^http:\/\//i.test(text))
      found.push(`${path()}: plain http link; prefer https if the site offers it.`);
  });
  return found;
}
