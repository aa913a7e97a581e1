/**
 * Lookups keyed by text a client sent: a creator may name a property `constructor`, and a JSON body
 * may carry `__proto__` or `toString` as keys. A plain `record[key]` finds Object.prototype's members
 * there, and assigning `__proto__` replaces an object's prototype; these see own properties only.
 */

/** The record's own value under `key`; undefined when it has none, whatever its prototype holds. */
export function ownValue<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** An empty record whose keys are only what is put in it: `__proto__` stays an ordinary key. */
export function emptyRecord<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}
