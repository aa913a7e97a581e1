import { forEachString } from './walk.ts';

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
