/**
 * How the embedded store keeps a long text value an update changed a little of (docs/decisions/
 * history.md, What a write pays): as splices, not whole. An itinerary's days are one JSON text of many
 * kilobytes, and a write that changes one day's note would otherwise keep all of it, pages of it,
 * with every change. A splice names the text the value holds now around what the change wrote
 * (`is`) and what stood there before (`was`); the value before the change is the value now with
 * `is` put back to `was`. An undo reads the value the row holds, which is the one the change left
 * (a later change of the record is undone first, or the undo is refused: undo.ts), and checks that
 * it is before applying anything.
 *
 * In a before-image a spliced value is an object `{ "splices": [...] }`, newest first; every other
 * value of an image is a column's value, never an object. PostgreSQL keeps values whole.
 */

/** Shorter values are kept whole: below a page's share of a row, a splice saves nothing worth a call. */
export const SPLICED_FROM_BYTES = 1024;

/** One splice: the first `keep` and last `keepEnd` characters of the value now stand around `is`, where `was` stood. */
type Splice = [keep: number, keepEnd: number, was: string, is: string];

interface Spliced {
  splices: Splice[];
}

type Values = Record<string, unknown>;

export function isSpliced(value: unknown): value is Spliced {
  return typeof value === 'object' && value !== null && Array.isArray((value as Partial<Spliced>).splices);
}

/**
 * A before-image's value of a long text an update changed (`history_splice()` in the triggers): a
 * splice as JSON, or null when the change rewrote so much of it that it is kept whole.
 */
export function spliceOf(before: string, after: string): string | null {
  const shorter = Math.min(before.length, after.length);
  let keep = commonLength(shorter, (from, to) => before.slice(from, to) === after.slice(from, to));
  let keepEnd = commonLength(
    shorter - keep,
    (from, to) =>
      before.slice(before.length - to, before.length - from) === after.slice(after.length - to, after.length - from),
  );
  // Never between the halves of a surrogate pair: each part stays text of its own.
  if (keep > 0 && isHighSurrogate(before.charCodeAt(keep - 1))) keep -= 1;
  if (keepEnd > 0 && isLowSurrogate(before.charCodeAt(before.length - keepEnd))) keepEnd -= 1;
  const was = before.slice(keep, before.length - keepEnd);
  const is = after.slice(keep, after.length - keepEnd);
  if (was.length + is.length > before.length / 2) return null;
  return JSON.stringify({ splices: [[keep, keepEnd, was, is]] });
}

/**
 * How many characters from one end two texts share, up to `most`: `same(from, to)` tells whether
 * they agree on the characters that far from the end. In runs of 256 characters, then 16, then
 * one: a comparison of two strings goes at a copy's speed, a loop over characters far slower.
 */
function commonLength(most: number, same: (from: number, to: number) => boolean): number {
  let n = 0;
  for (const run of [256, 16, 1]) {
    while (n + run <= most && same(n, n + run)) n += run;
  }
  return n;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * A row touched again by the change that keeps its image (`history_first_values()`): the first value
 * of each column is kept (`kept`, null when the change created the row), the columns first changed
 * now are added (`incoming`). A column kept as splices and changed again is the latest splices
 * then the first ones, or, where the image now has its whole value, that value as it was first.
 */
export function firstValues(kept: string | null, incoming: string | null): string | null {
  if (kept === null) return null;
  const first = JSON.parse(kept) as Values;
  const now = incoming === null ? {} : (JSON.parse(incoming) as Values);
  for (const [column, value] of Object.entries(now)) {
    if (!(column in first)) first[column] = value;
    else {
      const earlier = first[column];
      if (!isSpliced(earlier)) continue;
      first[column] = isSpliced(value)
        ? { splices: [...value.splices, ...earlier.splices] }
        : unsplice(earlier, value, column);
    }
  }
  return JSON.stringify(first);
}

/** A before-image with its spliced values made whole against the row as it stands (`current`). */
export function wholeValues(before: Values, current: Values | undefined, where: string): Values {
  let whole: Values | undefined;
  for (const [column, value] of Object.entries(before)) {
    if (!isSpliced(value)) continue;
    whole ??= { ...before };
    whole[column] = unsplice(value, current?.[column], `${where}.${column}`);
  }
  return whole ?? before;
}

function unsplice(spliced: Spliced, now: unknown, where: string): string {
  let value = now;
  for (const [keep, keepEnd, was, is] of spliced.splices) {
    if (typeof value !== 'string' || value.length !== keep + is.length + keepEnd || !value.startsWith(is, keep)) {
      throw new Error(`history: ${where} no longer holds what its change left, and cannot be put back`);
    }
    value = value.slice(0, keep) + was + value.slice(value.length - keepEnd);
  }
  return value as string;
}
