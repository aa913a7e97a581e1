import { refuse } from '../core/errors.ts';

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

/** What a move is asked for: the record and the neighbours named (previousId, nextId). */
export interface Move {
  id: string;
  previousId: string | undefined;
  nextId: string | undefined;
  /** How the refusals name the record: "chapter", "itinerary". */
  what: string;
}

/**
 * The new order key of `move.id` among `others` (every other record of the list, in order), or
 * undefined when its neighbours left no room (renumber, then ask again). A neighbour that is the
 * record itself, not in the list, or not next to the other neighbour is refused by field.
 */
export function placeAmong(others: ReadonlyArray<{ id: string; order: number }>, move: Move): number | undefined {
  const at = (field: 'previousId' | 'nextId', id: string | undefined) => {
    if (id === undefined) return undefined;
    if (id === move.id) throw refuse(field, `is the ${move.what} being moved; name a neighbour.`);
    const index = others.findIndex((c) => c.id === id);
    if (index < 0) throw refuse(field, `no other ${move.what} of this guide has this id.`);
    return index;
  };
  const before = at('previousId', move.previousId);
  const after = at('nextId', move.nextId);
  if (before !== undefined && after !== undefined && after !== before + 1) {
    throw refuse('nextId', 'does not directly follow previousId; send only one of the two.');
  }
  if (before !== undefined) return orderBetween(others[before]?.order, others[before + 1]?.order);
  if (after !== undefined) return orderBetween(others[after - 1]?.order, others[after]?.order);
  return orderBetween(others.at(-1)?.order, undefined);
}
