/**
 * Byte surgery on a zip fflate wrote: the hostile zips no zip tool writes (encrypted, lying about
 * its sizes or names, cut short), for the KMZ and archive suites and the zip reader's own.
 */

const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/** Where each header of `signature` named `name` starts. */
function headers(zip: Uint8Array, signature: number, name: string): number[] {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const nameAt = signature === CENTRAL ? 46 : 30;
  const lengthAt = signature === CENTRAL ? 28 : 26;
  const found: number[] = [];
  for (let at = 0; at + nameAt <= zip.length; at++) {
    if (view.getUint32(at, true) !== signature) continue;
    const length = view.getUint16(at + lengthAt, true);
    const own = Buffer.from(zip.subarray(at + nameAt, at + nameAt + length)).toString('utf8');
    if (own === name) found.push(at);
  }
  return found;
}

/** A copy of `zip` with `edit` applied to the headers of `name` (central directory, local, or both). */
function edited(
  zip: Uint8Array,
  name: string,
  where: 'central' | 'local' | 'both',
  edit: (view: DataView, at: number, kind: 'central' | 'local') => void,
): Buffer {
  const copy = Buffer.from(zip);
  const view = new DataView(copy.buffer, copy.byteOffset, copy.byteLength);
  if (where !== 'local') for (const at of headers(copy, CENTRAL, name)) edit(view, at, 'central');
  if (where !== 'central') for (const at of headers(copy, LOCAL, name)) edit(view, at, 'local');
  return copy;
}

/** `name` marked encrypted (general purpose flag bit 0) in both its headers. */
export const encrypted = (zip: Uint8Array, name: string) =>
  edited(zip, name, 'both', (view, at, kind) => {
    const flags = at + (kind === 'central' ? 8 : 6);
    view.setUint16(flags, view.getUint16(flags, true) | 1, true);
  });

/** `name` compressed with another method (12 is bzip2) in both its headers. */
export const withMethod = (zip: Uint8Array, name: string, method: number) =>
  edited(zip, name, 'both', (view, at, kind) => view.setUint16(at + (kind === 'central' ? 10 : 8), method, true));

/** `name` declaring `size` bytes once inflated, in its central directory header (what readers trust). */
export const declaringSize = (zip: Uint8Array, name: string, size: number) =>
  edited(zip, name, 'central', (view, at) => view.setUint32(at + 24, size, true));

/** `name` declaring `size` compressed bytes: more than the file holds reads as an entry cut short. */
export const declaringCompressed = (zip: Uint8Array, name: string, size: number) =>
  edited(zip, name, 'central', (view, at) => view.setUint32(at + 20, size, true));

/** `name` renamed `to` (the same length) in its central directory header, its local header, or both. */
export function renamed(
  zip: Uint8Array,
  name: string,
  to: string,
  where: 'central' | 'local' | 'both' = 'both',
): Buffer {
  if (Buffer.byteLength(to) !== Buffer.byteLength(name)) throw new Error('renamed: to a name of the same length only');
  const copy = Buffer.from(zip);
  const starts = [
    ...(where === 'local' ? [] : headers(copy, CENTRAL, name).map((at) => at + 46)),
    ...(where === 'central' ? [] : headers(copy, LOCAL, name).map((at) => at + 30)),
  ];
  for (const start of starts) copy.write(to, start, 'utf8');
  return copy;
}

/** `name`'s compressed bytes overwritten with 0xff: a deflate stream no inflater reads. */
export function garbled(zip: Uint8Array, name: string): Buffer {
  const copy = Buffer.from(zip);
  const view = new DataView(copy.buffer, copy.byteOffset, copy.byteLength);
  const [central] = headers(copy, CENTRAL, name);
  if (central === undefined) throw new Error(`garbled: no ${name}`);
  const size = view.getUint32(central + 20, true);
  const local = view.getUint32(central + 42, true);
  const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
  copy.fill(0xff, start, start + size);
  return copy;
}

/** The end record says 0xffff entries, as a ZIP64 archive's does. */
export function asZip64(zip: Uint8Array): Buffer {
  const copy = Buffer.from(zip);
  const end = copy.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error('asZip64: no end record');
  copy.writeUInt16LE(0xffff, end + 8);
  copy.writeUInt16LE(0xffff, end + 10);
  return copy;
}
