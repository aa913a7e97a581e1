/**
 * A fractional order key between two neighbours (either may be missing: the start or the end), so
 * a move writes one row. Undefined when the two are too close for a number between them.
 */
export function orderBetween(lower: number | undefined, upper: number | undefined): number | undefined {
  if (lower === undefined && upper === undefined) return 1;
  if (lower === undefined) return (upper as number) - 1;
  if (upper === undefined) return Math.floor(lower) + 1;
  const middle = lower + (upper - lower) / 2;
  return lower < middle && middle < upper ? middle : undefined;
}
