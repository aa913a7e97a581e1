import { kindWords } from './change-words.ts';

/** A release as list_releases and get_release describe it. */
export interface ReleaseSummary {
  release: number;
  publishedAt: number;
  by: { kind: 'key' | 'assistant' | 'studio'; name: string };
  /** What buyers could open, by kind in the plural ("spots"). */
  counts: Record<string, number>;
}

/** How many of a kind, in words: counts are keyed by the plural ("itineraries"), one is said in the singular. */
function countWords(plural: string, n: number): string {
  if (n !== 1) return `${n} ${kindWords(plural)}`;
  const singular = plural.endsWith('ies') ? `${plural.slice(0, -3)}y` : plural.replace(/s$/, '');
  return `1 ${kindWords(singular)}`;
}

/** What a release held, as "42 spots, 6 places, 1 chapter" (kinds it held none of are left out). */
export function heldWords(counts: Readonly<Record<string, number>>): string {
  const held = Object.entries(counts).filter(([, n]) => n > 0);
  if (held.length === 0) return 'Nothing buyers could open.';
  return `${held.map(([kind, n]) => countWords(kind, n)).join(', ')}.`;
}

/** Why a release has no Restore button, in words. */
export const NOT_RESTORABLE =
  'It cannot be restored: it was published before the service kept everything a guide holds with each release. ' +
  'Its differences still show what changed since, as buyers see it.';

/** What each kind of difference means for the working copy, and what a restore does about it. */
export const DIFFERENCE_WORDS: Readonly<Record<'added' | 'changed' | 'removed', string>> = {
  added: 'Added since (a restore removes it)',
  changed: 'Changed since (a restore puts back what the release held)',
  removed: 'Removed since (a restore brings it back)',
};

/** A release number as a path or a query says it; anything else names no release. */
export function releaseNumber(text: unknown): number | undefined {
  return typeof text === 'string' && /^[1-9][0-9]{0,8}$/.test(text) ? Number(text) : undefined;
}
