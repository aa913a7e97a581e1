import type { HistoryTables } from '../../core/history.ts';
import { compareSortKeys } from '../../core/paging-sorted.ts';
import type { TrackedTable } from '../../db/history-triggers.ts';
import { imageRow, type WorkingImage } from './image-format.ts';
import type { ImageRows, Row, WorkingCopyStore } from './working-copy.store.ts';

/** How one table's rows now differ from the image's. */
export interface TableDiff {
  table: TrackedTable;
  /** Rows now that the image does not hold: they leave on a restore. */
  extra: Row[];
  /** Rows the image holds and the table lacks: they come back. */
  missing: Row[];
  /** Rows of both whose restored columns differ, as the image has them. */
  changed: Row[];
}

const keyOf = (table: TrackedTable, row: Row) => JSON.stringify(table.keyColumns.map((c) => row[c] ?? null));

/** The key columns of a row, as the row primitives take them. */
export function keyColumnsOf(table: TrackedTable, row: Row): Row {
  return Object.fromEntries(table.keyColumns.map((c) => [c, row[c]]));
}

/**
 * The columns a restore writes: those the table has now (an image older than a migration lacks
 * new ones and may name dropped ones), less the stamps and sale state the history never records.
 */
export function restoredColumns(table: TrackedTable, row: Row): Row {
  const out: Row = {};
  for (const column of table.columns) {
    if (!table.unrecorded.includes(column) && Object.hasOwn(row, column)) out[column] = row[column];
  }
  return out;
}

/**
 * Whether two column values are the same as JSON: primitives compared as they are (what nearly every
 * column holds), objects (PostgreSQL's jsonb columns) as their JSON text. Stringifying every column
 * of every row made a 4,000-spot comparison a fifth of restore_release's time and most of its garbage.
 */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

function sameRow(table: TrackedTable, now: Row, image: Row): boolean {
  for (const column of table.columns) {
    if (table.unrecorded.includes(column) || !Object.hasOwn(image, column)) continue;
    if (!sameValue(now[column] ?? null, image[column] ?? null)) return false;
  }
  return true;
}

/**
 * What differs, table by table, in the order given (parents first). A table the image does not
 * know (added by a later migration) is left alone: nothing says what it held.
 */
export async function compareWithImage(
  workingCopy: WorkingCopyStore,
  guideId: string,
  tables: readonly TrackedTable[],
  image: WorkingImage,
): Promise<TableDiff[]> {
  const diffs: TableDiff[] = [];
  for (const table of tables) {
    const imageRows = image.tables.get(table.name);
    if (imageRows === undefined) continue;
    const kept = Array.isArray(imageRows) ? new Map<string, Uint8Array>() : imageRows;
    const now = (await workingCopy.differingRows(tables, table, guideId, kept)) ?? new Map<string, string | null>();
    const diff = Array.isArray(imageRows) ? compareParsed(table, imageRows, now) : compareKeyed(table, imageRows, now);
    if (diff.extra.length + diff.missing.length + diff.changed.length > 0) diffs.push(diff);
  }
  return diffs;
}

/**
 * Rows kept by key, against the rows now that differ from them (the rest the store found the same,
 * byte for byte, and never brought out): those are parsed and compared column by column (a row
 * whose stamps alone moved is the same).
 */
function compareKeyed(table: TrackedTable, image: ImageRows, now: ReadonlyMap<string, string | null>): TableDiff {
  const diff: TableDiff = { table, extra: [], missing: [], changed: [] };
  for (const [key, text] of now) {
    if (text === null) continue;
    const kept = image.get(key);
    if (kept === undefined) diff.extra.push(parsed(text));
    else {
      const row = imageRow(kept);
      if (!sameRow(table, parsed(text), row)) diff.changed.push(row);
    }
  }
  for (const [key, kept] of image) if (!now.has(key)) diff.missing.push(imageRow(kept));
  return diff;
}

/** An image kept before rows were kept by key: every row parsed, matched by its key columns. */
function compareParsed(table: TrackedTable, image: readonly Row[], now: ReadonlyMap<string, string | null>): TableDiff {
  const diff: TableDiff = { table, extra: [], missing: [], changed: [] };
  const current = new Map<string, Row>();
  for (const text of now.values()) {
    // Null only for a row the same as one held against it, and none was.
    if (text === null) continue;
    const row = parsed(text);
    current.set(keyOf(table, row), row);
  }
  for (const row of image) {
    const key = keyOf(table, row);
    const standing = current.get(key);
    if (standing === undefined) diff.missing.push(row);
    else if (!sameRow(table, standing, row)) diff.changed.push(row);
    current.delete(key);
  }
  diff.extra = [...current.values()];
  return diff;
}

const parsed = (text: string) => JSON.parse(text) as Row;

/** How the working copy differs from a release for one record: added since, removed since, or changed. */
export interface RecordDifference {
  kind: string;
  id: string;
  name: string | null;
  change: 'added' | 'removed' | 'changed';
}

/** A record's name as a person knows it, from whichever of its rows has one. */
function nameOf(row: Row): string | null {
  for (const field of ['name', 'label', 'title', 'headline']) {
    if (typeof row[field] === 'string' && row[field] !== '') return row[field] as string;
  }
  return null;
}

/**
 * The records that differ, by kind and id: a record's own row says whether it was added or removed
 * since the release; a row that is part of it (a member, a link) only that it changed.
 */
export function recordDifferences(
  diffs: readonly TableDiff[],
  declared: HistoryTables,
  /** The tables and the release's image, to name a record changed only through its parts. */
  named: { tables: readonly TrackedTable[]; image: WorkingImage } = { tables: [], image: { tables: new Map() } },
): RecordDifference[] {
  const records = new Map<string, RecordDifference>();
  const note = (table: TrackedTable, row: Row, change: RecordDifference['change']) => {
    const declaration = declared[table.name];
    const part = declaration !== 'untracked' && declaration?.part === true;
    const id = String(row[table.idColumn]);
    const key = `${table.kind} ${id}`;
    const known = records.get(key);
    const what = part ? 'changed' : change;
    if (!known) records.set(key, { kind: table.kind, id, name: part ? null : nameOf(row), change: what });
    else {
      if (known.change === 'changed' && what !== 'changed') known.change = what;
      if (!part) known.name ??= nameOf(row);
    }
  };
  for (const diff of diffs) {
    for (const row of diff.extra) note(diff.table, row, 'added');
    for (const row of diff.missing) note(diff.table, row, 'removed');
    for (const row of diff.changed) note(diff.table, row, 'changed');
  }
  // A record changed only through its parts (a chapter's members) has its own row as the release
  // kept it (had that row changed, it would be named already): it is named from the image.
  const unnamed = [...records.values()].filter((r) => r.name === null);
  for (const table of unnamed.length === 0 ? [] : named.tables) {
    const declaration = declared[table.name];
    const rows = named.image.tables.get(table.name);
    if ((declaration !== 'untracked' && declaration?.part === true) || rows === undefined) continue;
    for (const record of unnamed) {
      if (record.kind !== table.kind || record.name !== null) continue;
      const row = ownRow(table, rows, record.id);
      if (row) record.name = nameOf(row);
    }
  }
  return sortDifferences([...records.values()]);
}

/** A record's own row in an image's table: by its key where its id is the key, else found among them. */
function ownRow(table: TrackedTable, rows: ImageRows | readonly Row[], id: string): Row | undefined {
  const isId = (row: Row) => String(row[table.idColumn]) === id;
  if (Array.isArray(rows)) return rows.find(isId);
  const keyed = rows as ImageRows;
  if (table.keyColumns.length === 1 && table.keyColumns[0] === table.idColumn) {
    const kept = keyed.get(JSON.stringify([id])) ?? keyed.get(JSON.stringify([Number(id)]));
    if (kept) return imageRow(kept);
  }
  for (const kept of keyed.values()) {
    const row = imageRow(kept);
    if (isId(row)) return row;
  }
  return undefined;
}

/** Differences in the order their pages are read in (compareSortKeys: what a cursor resumes after). */
export function sortDifferences(records: RecordDifference[]): RecordDifference[] {
  return records.sort((a, b) => compareSortKeys([a.kind, a.id], [b.kind, b.id]));
}

/** Records that differ, counted by kind: the summary a page of them comes with. */
export function countByKind(
  records: readonly RecordDifference[],
): { kind: string; added: number; changed: number; removed: number }[] {
  const counts = new Map<string, { kind: string; added: number; changed: number; removed: number }>();
  for (const r of records) {
    const c = counts.get(r.kind) ?? { kind: r.kind, added: 0, changed: 0, removed: 0 };
    c[r.change]++;
    counts.set(r.kind, c);
  }
  return [...counts.values()];
}
