import { Unzip, type UnzipFileInfo, UnzipInflate, unzipSync } from 'fflate';
import { ApiError } from '../../../core/errors.ts';
import { GPX_CHARS_MAX } from '../../../shared/tracks/track.schema.ts';
import type { ImportedFile } from '../imported-file.ts';
import { refuseContent } from './feature-list.ts';
import { readKml } from './kml.ts';

/**
 * KMZ: a zip holding a KML (doc.kml, as Google Earth and My Maps write it, or the first .kml at its
 * root) beside the icons and images it uses. Only that KML is inflated, and never past
 * KMZ_KML_BYTES_MAX, whatever the archive says of itself: docs/decisions/files.md (Readers).
 */

/** A My Maps KMZ holds its KML and a few dozen icons; thousands of entries is not a map. */
export const KMZ_ENTRIES_MAX = 1000;
/**
 * The most a KMZ's KML may inflate to: what a hike's GPX text may be (GPX_CHARS_MAX), read by the
 * same XML parser, whose tree of a worst-shaped file takes about 130 times its size in memory.
 */
export const KMZ_KML_BYTES_MAX = GPX_CHARS_MAX;
/**
 * KML deflates 10 to 20 times (measured on My Maps exports and generated files); deflate itself
 * stops near 1,032. Past this ratio the entry is a zip bomb, refused before it is inflated.
 */
export const KMZ_RATIO_MAX = 200;
/**
 * The archive is fed to the inflater this many bytes at a time, so an entry that inflates past
 * its declared size is stopped within a few megabytes of the cap, not after gigabytes.
 */
const CHUNK_BYTES = 4096;

/** A name that would land outside the archive if written out: absolute, a drive, or "..". */
function unsafeName(name: string): boolean {
  const path = name.replaceAll('\\', '/');
  return path.includes('\0') || path.startsWith('/') || /^[a-z]:/i.test(path) || path.split('/').includes('..');
}

/** fflate's errors (not a zip, a corrupt stream) become the file's refusal; ours pass through. */
function unzipping<T>(run: () => T): T {
  try {
    return run();
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw refuseContent(`is not a readable KMZ (zip) file: ${err instanceof Error ? err.message : String(err)}.`);
  }
}

/** The entries as the central directory declares them, checked before anything is inflated. */
function listEntries(bytes: Uint8Array): UnzipFileInfo[] {
  const entries: UnzipFileInfo[] = [];
  unzipping(() =>
    unzipSync(bytes, {
      filter: (entry) => {
        if (entries.length >= KMZ_ENTRIES_MAX) {
          throw refuseContent(`holds more than ${KMZ_ENTRIES_MAX} files; a KMZ is a KML and its icons.`);
        }
        if (unsafeName(entry.name)) {
          throw refuseContent(`holds a file named ${JSON.stringify(entry.name)}, a path out of the archive.`);
        }
        entries.push(entry);
        return false;
      },
    }),
  );
  return entries;
}

/** doc.kml at the root, else the first .kml there, checked against the size and ratio caps. */
function chooseKml(entries: UnzipFileInfo[]): UnzipFileInfo {
  const atRoot = entries.filter((e) => !e.name.replaceAll('\\', '/').includes('/') && /\.kml$/i.test(e.name));
  const kml = atRoot.find((e) => e.name.toLowerCase() === 'doc.kml') ?? atRoot[0];
  if (kml === undefined) throw refuseContent('is a zip without a .kml file at its root, so not a KMZ.');
  if (kml.compression !== 0 && kml.compression !== 8) {
    throw refuseContent(`compresses ${kml.name} with method ${kml.compression}; a KMZ uses deflate.`);
  }
  if (kml.originalSize > KMZ_KML_BYTES_MAX) {
    throw refuseContent(
      `holds a KML of ${kml.originalSize.toLocaleString('en')} bytes; the most read is ${KMZ_KML_BYTES_MAX.toLocaleString('en')}.`,
    );
  }
  if (kml.originalSize > Math.max(kml.size, 1) * KMZ_RATIO_MAX) {
    throw refuseContent(`holds ${kml.name} compressed more than ${KMZ_RATIO_MAX} times, as a zip bomb is.`);
  }
  return kml;
}

/** Inflates one entry, stopping the moment it passes its declared size (or the cap). */
function inflate(bytes: Uint8Array, kml: UnzipFileInfo): Uint8Array {
  const limit = Math.min(kml.originalSize, KMZ_KML_BYTES_MAX);
  const chunks: Uint8Array[] = [];
  let total = 0;
  let complete = false;
  let started = false;
  const unzip = new Unzip((file) => {
    if (started || file.name !== kml.name) return;
    started = true;
    file.ondata = (err, data, final) => {
      if (err) throw err;
      total += data.length;
      if (total > limit)
        throw refuseContent(`holds ${kml.name}, which inflates past the size it declares, as a zip bomb does.`);
      chunks.push(data);
      complete = final;
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  unzipping(() => {
    for (let at = 0; at < bytes.length; at += CHUNK_BYTES) {
      unzip.push(bytes.subarray(at, at + CHUNK_BYTES), at + CHUNK_BYTES >= bytes.length);
    }
  });
  if (!complete) throw refuseContent(`holds ${kml.name}, which could not be read to its end.`);
  return Buffer.concat(chunks, total);
}

/** Reads a KMZ's KML as readKml does, refusing what is not a safe zip of UTF-8 KML (400 at `content`). */
export function readKmz(bytes: Uint8Array): ImportedFile {
  const kml = chooseKml(listEntries(bytes));
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(inflate(bytes, kml));
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw refuseContent(`holds ${kml.name}, which is not UTF-8 text.`);
  }
  return readKml(text);
}
