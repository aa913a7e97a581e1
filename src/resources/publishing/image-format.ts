import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import type { KeyedRows, Row } from './working-copy.store.ts';

/**
 * A release's working image: the raw rows of every tracked table of the guide as they stood at the
 * publish (working-copy.store.ts), by table. What restore_release gives back and get_release
 * compares the working copy with; the buyers' snapshot cannot serve, as it leaves out reviewer-only
 * fields, archived spots, properties and more.
 */
export interface WorkingImage {
  /**
   * Each table's rows: by key, as JSON texts, in an image kept a row a line; parsed, in one kept
   * before as a single JSON document (its keys are the rows' own).
   */
  tables: Map<string, KeyedRows | Row[]>;
}

const zip = promisify(gzip);
const unzip = promisify(gunzip);

/**
 * The size of the buffers zlib fills on its thread: each full one is a call back on the main
 * thread, and they are joined at the end. At zlib's 16 KiB, a 4,000-spot guide's image (13 MB of
 * JSON) took 820 calls and 62 ms to unpack, where 1 MiB takes 13 calls and 12 ms
 * (docs/decisions/performance.md, "A release's image unpacked in large pieces").
 */
const ZLIB_CHUNK_BYTES = 1024 * 1024;

/**
 * The first line of an image kept a row a line. Then each table: a line of its name after
 * TABLE_MARK, and a line a row, its key's JSON and its own, a tab between. JSON text holds no raw
 * tab or line break (both are escaped inside strings), and a key's JSON starts with '['. Kept so
 * (2026-11-28 on), a row unchanged since the publish is compared as text and never parsed
 * (docs/decisions/performance.md, "Rows compared as text"); images kept before are one JSON
 * document, still read.
 */
const ROW_A_LINE = 'creator-api working image, a row a line';
const TABLE_MARK = '#';

/** The image as stored, gzipped, and its text (what the photo files it names are read from). */
export async function packImage(tables: ReadonlyMap<string, KeyedRows>): Promise<{ packed: Uint8Array; text: string }> {
  const lines = [ROW_A_LINE];
  for (const [name, rows] of tables) {
    lines.push(`${TABLE_MARK}${name}`);
    for (const [key, row] of rows) lines.push(`${key}\t${row}`);
  }
  const text = lines.join('\n');
  return { packed: await zip(text, { chunkSize: ZLIB_CHUNK_BYTES }), text };
}

export async function unpackImage(packed: Uint8Array): Promise<WorkingImage> {
  const text = (await unzip(packed, { chunkSize: ZLIB_CHUNK_BYTES })).toString('utf8');
  if (!text.startsWith(ROW_A_LINE)) {
    const { tables } = JSON.parse(text) as { tables: Record<string, Row[]> };
    return { tables: new Map(Object.entries(tables)) };
  }
  const tables = new Map<string, KeyedRows>();
  let rows: KeyedRows = new Map();
  for (const line of text.slice(ROW_A_LINE.length + 1).split('\n')) {
    if (line === '') continue;
    if (line.startsWith(TABLE_MARK)) {
      rows = new Map();
      tables.set(line.slice(TABLE_MARK.length), rows);
      continue;
    }
    const tab = line.indexOf('\t');
    rows.set(line.slice(0, tab), line.slice(tab + 1));
  }
  return { tables };
}
