import { z } from 'zod';
import { longerThan } from '../core/validation.ts';

/**
 * Text of at most `max` characters, counted by code point as the specification, the tool schemas
 * (maxLength) and people count them. zod's own max counts UTF-16 units, where an emoji is two.
 */
export function text(max: number) {
  return z
    .string()
    .superRefine((value, ctx) => {
      if (longerThan(value, max)) {
        ctx.addIssue({ code: 'too_big', origin: 'string', maximum: max, inclusive: true, input: value });
      }
    })
    .meta({ maxLength: max });
}

const saysSomething = (s: string) => s.trim().length > 0;

/** A name that must say something: not empty, not only spaces (both refused as empty). */
export function requiredText(max: number) {
  return text(max).refine(saysSomething, { message: 'must not be empty' });
}

/**
 * A record's name: 1 to `max` characters (minLength 1 in the tool schemas), refused as empty or as
 * only spaces, each in its own words.
 */
export function nameText(max: number) {
  return text(max).min(1).refine(saysSomething, { message: 'must not be only spaces' });
}

/** Lowercase letters, digits and hyphens, starting with a letter or digit; 1 to 63 characters. */
export const slugSchema = z
  .string()
  .min(1)
  .max(63)
  .transform((s) => s.toLowerCase())
  .refine((s) => /^[a-z0-9][a-z0-9-]*$/.test(s), {
    message: 'must be lowercase letters, digits and hyphens, starting with a letter or digit',
  });

/** A URL-safe slug derived from any title: accents folded, everything else to hyphens. */
export function slugify(text: string, fallback = 'guide'): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 63)
    .replace(/-+$/, '');
  return slug === '' ? fallback : slug;
}

/**
 * `base` if free, else `base-2`, `base-3`…, each kept within `max` characters by shortening the
 * base, never the number. `taken` must hold every taken value starting with `candidateStem(base)`.
 */
export function firstFree(base: string, taken: ReadonlySet<string>, max = 63, separator: '-' | '_' = '-'): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `${separator}${n}`;
    const candidate = `${base.slice(0, max - suffix.length).replace(/[-_]+$/, '')}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/**
 * What `base` and every numbered candidate `firstFree` may make of it start with: the values to
 * look up as taken. (Candidates shorten the base to fit, so `base-%` would miss a long one.)
 */
export function candidateStem(base: string, max = 63): string {
  return base.slice(0, max - 10).replace(/[-_]+$/, '');
}

/** A PATCH string where "" clears: undefined stays unsent, "" becomes null, text stays text. */
export function clearable<T extends string | null | undefined>(value: T): Exclude<T, ''> | null {
  return (value === '' ? null : value) as Exclude<T, ''> | null;
}

/**
 * A name as people sort it, for an index to order by (byte order): accents and case folded away,
 * numbers compared as numbers ("Hut 2" before "Hut 10"), as Intl.Collator's base sensitivity does.
 */
export function nameSortKey(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/\d+/g, (digits) => digits.replace(/^0+(?=\d)/, '').padStart(12, '0'));
}

/**
 * A whole number as `toLocaleString('en')` writes it ("100,000"), without ICU: its first number
 * format costs a start ~10 ms of CPU, and descriptions built at import need only the commas.
 */
export function withCommas(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+$)/g, ',');
}
