import { inflateRawSync } from 'node:zlib';
import type { ApiError } from '../../core/errors.ts';

/**
 * The one reader of the zips creators send: a KMZ to import_spots (formats/kmz.ts) and a guide
 * archive to import_guide (archive/archive-reader.ts). Its costs are bounded before a byte is
 * inflated: the central directory is read first (how many entries, their names, flags and declared
 * sizes) and checked against the caller's limits; each entry then inflates through node:zlib's
 * `maxOutputLength`, so an entry lying about its size stops one byte past what it declared. The
 * caller words every refusal (its field, its words). Why this one and not fflate's readers:
 * docs/decisions/files.md (One zip reader).
 */

/** One entry as the central directory declares it. */
export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated: anything else is refused when the entry is read. */
  method: number;
  compressedSize: number;
  /** What it says it inflates to. */
  size: number;
  localOffset: number;
}

/** What is wrong with the zip as a whole. */
type WholeFault = 'not-zip' | 'zip64' | 'entries' | 'directory' | 'total';
/** What is wrong with one entry of it. */
type EntryFault =
  | 'name'
  | 'duplicate'
  | 'encrypted'
  | 'method'
  | 'size'
  | 'ratio'
  | 'damaged'
  | 'cut-short'
  | 'inflates-past'
  | 'ends-early';

/** A refusal before the caller words it: what is wrong, the entry at fault, and the reader's sentence. */
export type ZipFault = { kind: WholeFault; sentence: string } | { kind: EntryFault; entry: ZipEntry; sentence: string };

/** What a caller lets a zip cost, and how it words a refusal. */
export interface ZipLimits {
  /** Entries the central directory may list. */
  entries: number;
  /** The most one entry may inflate to, by its name (an archive's parts differ). */
  entryBytes: (name: string) => number;
  /** The most the entries read inflate to, together. */
  totalBytes: number;
  /** Declared size over compressed size past which an entry is a bomb, refused before it inflates. */
  ratio?: number;
  /** The refusal under the caller's field, in its words. */
  refuse: (fault: ZipFault) => ApiError;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/** A name that would land outside the archive if written out: absolute, a drive, "..", or a NUL. */
function unsafeName(name: string): boolean {
  const path = name.replaceAll('\\', '/');
  return path.includes('\0') || path.startsWith('/') || /^[a-z]:/i.test(path) || path.split('/').includes('..');
}

export class ZipReader {
  /** The entries the central directory lists, in its order, checked; nothing inflated yet. */
  readonly entries: readonly ZipEntry[];
  readonly #zip: Buffer;
  readonly #limits: ZipLimits;
  #inflated = 0;

  constructor(bytes: Uint8Array, limits: ZipLimits) {
    this.#zip = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.#limits = limits;
    this.entries = this.#list();
  }

  /** Entries about to be read, checked against the caps together, before any of them inflates. */
  checkSizes(entries: readonly ZipEntry[]): void {
    const { entryBytes, ratio, totalBytes, refuse } = this.#limits;
    let total = this.#inflated;
    for (const entry of entries) {
      const cap = entryBytes(entry.name);
      if (entry.size > cap) {
        throw refuse({ kind: 'size', entry, sentence: `declares ${entry.size} bytes; at most ${cap} are read.` });
      }
      if (ratio !== undefined && entry.size > Math.max(entry.compressedSize, 1) * ratio) {
        const sentence = `declares ${entry.size} bytes from ${entry.compressedSize}, more than ${ratio} times: a zip bomb.`;
        throw refuse({ kind: 'ratio', entry, sentence });
      }
      total += entry.size;
    }
    if (total > totalBytes) {
      throw refuse({
        kind: 'total',
        sentence: `declares ${total} bytes once inflated; at most ${totalBytes} are read.`,
      });
    }
  }

  /** The entry's bytes, never more than it declared: a longer or shorter one is refused. */
  inflate(entry: ZipEntry): Buffer {
    const fault = (kind: EntryFault, sentence: string) => this.#limits.refuse({ kind, entry, sentence });
    if (entry.method !== 0 && entry.method !== 8) {
      throw fault('method', `uses compression method ${entry.method}; only stored and deflate are read.`);
    }
    this.checkSizes([entry]);
    const data = this.#data(entry, fault);
    const past = () => fault('inflates-past', `inflates to more than the ${entry.size} bytes it declares.`);
    let bytes = data;
    if (entry.method === 8) {
      try {
        // One byte more than declared is enough to know it lied.
        bytes = inflateRawSync(data, { maxOutputLength: entry.size + 1 });
      } catch (err) {
        if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw past();
        throw fault('damaged', `is damaged: its deflated data cannot be read (${(err as Error).message}).`);
      }
    }
    if (bytes.length > entry.size) throw past();
    if (bytes.length < entry.size) {
      throw fault('ends-early', `ends at ${bytes.length} bytes, short of the ${entry.size} it declares.`);
    }
    this.#inflated += bytes.length;
    return bytes;
  }

  /** The entry's stored bytes, after a local header that names it as the central directory does. */
  #data(entry: ZipEntry, fault: (kind: EntryFault, sentence: string) => ApiError): Buffer {
    const zip = this.#zip;
    const at = entry.localOffset;
    if (at + 30 > zip.length || zip.readUInt32LE(at) !== LOCAL) throw fault('damaged', 'is damaged: no local header.');
    const nameLength = zip.readUInt16LE(at + 26);
    // Two names for one entry would let two zip tools read two different files from it.
    if (zip.toString('utf8', at + 30, at + 30 + nameLength) !== entry.name) {
      throw fault('damaged', 'is damaged: its local header names another file.');
    }
    const start = at + 30 + nameLength + zip.readUInt16LE(at + 28);
    const data = zip.subarray(start, start + entry.compressedSize);
    if (data.length !== entry.compressedSize) throw fault('cut-short', 'is cut short.');
    return data;
  }

  #list(): ZipEntry[] {
    const zip = this.#zip;
    const { refuse } = this.#limits;
    const whole = (kind: WholeFault, sentence: string) => refuse({ kind, sentence });
    const end = endOfDirectory(zip);
    if (end === undefined) throw whole('not-zip', 'is not a zip file (no central directory).');
    const count = zip.readUInt16LE(end + 10);
    const offset = zip.readUInt32LE(end + 16);
    if (count === 0xffff || offset === 0xffffffff) throw whole('zip64', 'is a ZIP64 archive, which is not read here.');
    if (count > this.#limits.entries) {
      throw whole('entries', `holds ${count} entries; at most ${this.#limits.entries} are read.`);
    }
    const entries: ZipEntry[] = [];
    const seen = new Set<string>();
    let at = offset;
    for (let i = 0; i < count; i++) {
      if (at + 46 > zip.length || zip.readUInt32LE(at) !== CENTRAL)
        throw whole('directory', 'has a damaged central directory.');
      const flags = zip.readUInt16LE(at + 8);
      const nameLength = zip.readUInt16LE(at + 28);
      if (at + 46 + nameLength > zip.length) throw whole('directory', 'has a damaged central directory.');
      const entry: ZipEntry = {
        name: zip.toString('utf8', at + 46, at + 46 + nameLength),
        method: zip.readUInt16LE(at + 10),
        compressedSize: zip.readUInt32LE(at + 20),
        size: zip.readUInt32LE(at + 24),
        localOffset: zip.readUInt32LE(at + 42),
      };
      const fault = (kind: EntryFault, sentence: string) => refuse({ kind, entry, sentence });
      if (flags & 1) throw fault('encrypted', 'is encrypted.');
      if (unsafeName(entry.name)) throw fault('name', 'is a path out of the archive (absolute, a drive, or "..").');
      // Two entries of one name: which one a zip tool reads is its own choice.
      if (seen.has(entry.name)) throw fault('duplicate', 'appears twice.');
      seen.add(entry.name);
      entries.push(entry);
      at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    }
    return entries;
  }
}

/** Where the end-of-central-directory record starts: within its 22 bytes and a comment from the end. */
function endOfDirectory(zip: Buffer): number | undefined {
  const last = Math.max(0, zip.length - 22 - 0xffff);
  for (let at = zip.length - 22; at >= last; at--) if (zip.readUInt32LE(at) === EOCD) return at;
  return undefined;
}
