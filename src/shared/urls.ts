import { z } from 'zod';

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
 * Where a plain http link sits in a write's input, as warnings: one walk over the parsed input,
 * so every resource that carries links warns the same way.
 */
export function plainHttpWarnings(input: unknown, path = ''): string[] {
  const found: string[] = [];
  const walk = (value: unknown, at: string, key: string): void => {
    if (typeof value === 'string') {
      if (isLinkField(key) && /^http:\/\//i.test(value)) {
        found.push(`${at}: plain http link; prefer https if the site offers it.`);
      }
    } else if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) walk(item, `${at}[${i}]`, key);
    } else if (value !== null && typeof value === 'object') {
      for (const [k, item] of Object.entries(value)) walk(item, at === '' ? k : `${at}.${k}`, k);
    }
  };
  walk(input, path, '');
  return found;
}

/** Fields that hold a link by name: `url`, `…Url`, `website`. */
function isLinkField(key: string): boolean {
  return key === 'website' || key === 'url' || key.endsWith('Url');
}
