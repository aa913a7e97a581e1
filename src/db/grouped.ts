/**
 * Rows of a batched query (`where owner in (...)`) gathered under their owner, in the order the
 * query returned them. Every owner asked for is present, with [] when it has no rows.
 */
export function groupedBy<Row, Item>(
  owners: readonly string[],
  rows: readonly Row[],
  ownerOf: (row: Row) => string,
  toItem: (row: Row) => Item,
): Map<string, Item[]> {
  const groups = new Map<string, Item[]>(owners.map((owner) => [owner, []]));
  for (const row of rows) groups.get(ownerOf(row))?.push(toItem(row));
  return groups;
}
