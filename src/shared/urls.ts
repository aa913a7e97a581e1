import { z } from 'zod';

/** The parsed URL, or undefined where the text is none. */
export function parseUrl(text: string): URL | undefined {
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
  .meta({ id: 'WebUrl', description: 'https (http is accepted with a warning)' });
