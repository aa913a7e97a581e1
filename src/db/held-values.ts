/**
 * Values a statement on the embedded store compares its rows against, held in this process while it
 * runs: `held_value(token, key)` in SQL answers the value held under that key, or null. A value goes
 * into SQLite (a copy in its memory) instead of each row coming out into the JavaScript heap: a
 * release's 4,000-spot image compared with the rows now used to bring 13 MB of row text into the
 * heap, two thirds of it garbage at once, and that cost grew faster than the guide
 * (docs/decisions/performance.md, "Rows compared inside SQLite").
 */
export type HeldValues = ReadonlyMap<string, Uint8Array | string>;

const held = new Map<number, HeldValues>();
let lastToken = 0;

/** Holds `values` for the statements `use` runs (synchronously or not), under a token they name. */
export async function holdingValues<T>(values: HeldValues, use: (token: number) => Promise<T>): Promise<T> {
  const token = ++lastToken;
  held.set(token, values);
  try {
    return await use(token);
  } finally {
    held.delete(token);
  }
}

/** What `held_value(token, key)` answers (registered on each embedded connection). */
export function heldValue(token: unknown, key: unknown): Uint8Array | string | null {
  return held.get(Number(token))?.get(String(key)) ?? null;
}
