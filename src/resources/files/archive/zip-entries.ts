import { inflateRawSync } from 'node:zlib';
import { refuse } from '../../../core/errors.ts';

/**
 * A zip read with its costs bounded before a byte is inflated: the central directory is read first
 * (names, declared sizes, how many), the caller checks them against its caps, and each entry then
 * inflates to at most its declared size (a zip bomb lying about its sizes stops there). fflate's
 * own readers trust the declared size, so the directory is read here and inflating is left to
 * node:zlib, whose `maxOutputLength` stops a bomb mid-way.
 */

/** One entry as the central directory declares it. */
export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated: anything else is refused. */
  method: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
/** A refusal naming the archive, or one entry of it. */
const bad = (sentence: string, entry?: string) =>
  refuse(entry === undefined ? 'archive' : `archive entry "${entry}"`, `${sentence} Nothing was imported.`);

function endOfDirectory(zip: Buffer): number {
  const last = Math.max(0, zip.length - 22 - 0xffff);
  for (let at = zip.length - 22; at >= last; at--) if (zip.readUInt32LE(at) === EOCD) return at;
  throw bad('is not a zip file (no central directory).');
}

/** The entries the archive's central directory lists, in its order; nothing is inflated. */
export function zipEntries(zip: Buffer, maxEntries: number): ZipEntry[] {
  if (zip.length < 22) throw bad('is not a zip file.');
  const end = endOfDirectory(zip);
  const count = zip.readUInt16LE(end + 10);
  const offset = zip.readUInt32LE(end + 16);
  if (count === 0xffff || offset === 0xffffffff) throw bad('is a ZIP64 archive, which is not read here.');
  if (count > maxEntries) throw bad(`holds ${count} entries; at most ${maxEntries} are read.`);
  const entries: ZipEntry[] = [];
  let at = offset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== CENTRAL) throw bad('has a damaged central directory.');
    const flags = zip.readUInt16LE(at + 8);
    const nameLength = zip.readUInt16LE(at + 28);
    const skip = nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    if (flags & 1) throw bad('is encrypted.', name);
    entries.push({
      name,
      method: zip.readUInt16LE(at + 10),
      compressedSize: zip.readUInt32LE(at + 20),
      size: zip.readUInt32LE(at + 24),
      localOffset: zip.readUInt32LE(at + 42),
    });
    at += 46 + skip;
  }
  return entries;
}

/** The entry's bytes, never more than it declared: a longer or shorter one is refused. */
export function inflateEntry(zip: Buffer, entry: ZipEntry): Buffer {
  const at = entry.localOffset;
  if (at + 30 > zip.length || zip.readUInt32LE(at) !== LOCAL) throw bad('is damaged.', entry.name);
  const start = at + 30 + zip.readUInt16LE(at + 26) + zip.readUInt16LE(at + 28);
  const data = zip.subarray(start, start + entry.compressedSize);
  if (data.length !== entry.compressedSize) throw bad('is cut short.', entry.name);
  let bytes: Buffer;
  if (entry.method === 0) bytes = data;
  else if (entry.method === 8) {
    try {
      // One byte more than declared is enough to know it lied.
      bytes = inflateRawSync(data, { maxOutputLength: Math.max(1, entry.size + 1) });
    } catch {
      throw bad(`inflates to more than the ${entry.size} bytes it declares, or is damaged.`, entry.name);
    }
  } else throw bad(`uses compression method ${entry.method}; only stored and deflate are read.`, entry.name);
  if (bytes.length !== entry.size) {
    throw bad(`holds ${bytes.length} bytes, not the ${entry.size} it declares.`, entry.name);
  }
  return bytes;
}
