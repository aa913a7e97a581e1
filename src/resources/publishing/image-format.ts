import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import type { ImageRows, KeyedRows, Row } from './working-copy.store.ts';

/**
 * A release's working image: the raw rows of every tracked table of the guide as they stood at the
 * publish (working-copy.store.ts), by table. What restore_release gives back and get_release
 * compares the working copy with; the buyers' snapshot cannot serve, as it leaves out reviewer-only
 * fields, archived spots, properties and more.
 */
export interface WorkingImage {
  /**
   * Each table's rows: by key, in an image kept a row a line; parsed, in one kept before as a single
   * JSON document (its keys are the rows' own).
   */
  tables: Map<string, ImageRows | Row[]>;
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

/** zlib's smallest buffer, and the largest one an image is unpacked into at once. */
const MIN_ZLIB_CHUNK_BYTES = 64;
const MAX_UNPACKED_CHUNK_BYTES = 256 * 1024 * 1024;

/**
 * The first line of an image kept a row a line. Then each table: a line of its name after
 * TABLE_MARK, and a line a row, its key's JSON and its own, a tab between. JSON text holds no raw
 * tab or line break (both are escaped inside strings), and a key's JSON starts with '['. Kept so
 * (2026-11-28 on), a row unchanged since the publish is compared as it was kept, byte for byte, and
 * never decoded or parsed (docs/decisions/performance.md, "Rows compared as text", "Rows compared
 * inside SQLite"); images kept before are one JSON document, still read.
 */
const ROW_A_LINE = 'creator-api working image, a row a line';
const TABLE_MARK = '#';
const HEADER = Buffer.from(ROW_A_LINE);
const TABLE_MARK_BYTE = TABLE_MARK.charCodeAt(0);
const LINE_BREAK = 0x0a;
const TAB = 0x09;

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
  const bytes = (await unzip(packed, { chunkSize: unpackedSize(packed) })) as Buffer;
  if (!bytes.subarray(0, HEADER.length).equals(HEADER)) {
    const { tables } = JSON.parse(bytes.toString('utf8')) as { tables: Record<string, Row[]> };
    return { tables: new Map(Object.entries(tables)) };
  }
  const tables = new Map<string, ImageRows>();
  let rows: ImageRows = new Map();
  for (let at = HEADER.length + 1; at < bytes.length; ) {
    const found = bytes.indexOf(LINE_BREAK, at);
    const end = found === -1 ? bytes.length : found;
    if (bytes[at] === TABLE_MARK_BYTE) {
      rows = new Map();
      tables.set(bytes.toString('utf8', at + 1, end), rows);
    } else if (end > at) {
      const tab = bytes.indexOf(TAB, at);
      rows.set(bytes.toString('utf8', at, tab), bytes.subarray(tab + 1, end));
    }
    at = end + 1;
  }
  return { tables };
}

/**
 * The buffer zlib fills with an image: its whole size, as gzip's last four bytes give it (modulo
 * 4 GiB; zlib carries on in more buffers should that be short). One buffer and one call back, not
 * a 1 MiB buffer at a time joined at the end: that was twice the image in memory outside the heap
 * (27 MB at 4,000 spots), which made V8 collect the heap in the restore that crossed its limit
 * (docs/decisions/performance.md, "Rows compared inside SQLite").
 */
function unpackedSize(packed: Uint8Array): number {
  if (packed.byteLength < 18) return ZLIB_CHUNK_BYTES;
  const size = Buffer.from(packed.buffer, packed.byteOffset, packed.byteLength).readUInt32LE(packed.byteLength - 4);
  return Math.min(Math.max(size, MIN_ZLIB_CHUNK_BYTES), MAX_UNPACKED_CHUNK_BYTES);
}

/** A row of an image as it was kept. */
export function imageRow(bytes: Uint8Array): Row {
  return JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')) as Row;
}
