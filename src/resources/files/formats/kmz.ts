import type { ApiError } from '../../../core/errors.ts';
import { GPX_CHARS_MAX } from '../../../shared/tracks/track.schema.ts';
import type { ImportedFile } from '../imported-file.ts';
import { type ZipEntry, type ZipFault, type ZipLimits, ZipReader } from '../zip-reader.ts';
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

/** The zip reader's refusals in a KMZ's words, at `content` (import_spots says `uploadId` for an upload). */
function kmzRefusal(fault: ZipFault): ApiError {
  switch (fault.kind) {
    case 'entries':
      return refuseContent(`holds more than ${KMZ_ENTRIES_MAX} files; a KMZ is a KML and its icons.`);
    case 'name':
      return refuseContent(`holds a file named ${JSON.stringify(fault.entry.name)}, a path out of the archive.`);
    case 'duplicate':
      return refuseContent(`holds two files named ${fault.entry.name}; which one a map app reads is its own choice.`);
    case 'method':
      return refuseContent(`compresses ${fault.entry.name} with method ${fault.entry.method}; a KMZ uses deflate.`);
    case 'size':
      return refuseContent(
        `holds a KML of ${fault.entry.size.toLocaleString('en')} bytes; ` +
          `the most read is ${KMZ_KML_BYTES_MAX.toLocaleString('en')}.`,
      );
    case 'ratio':
      return refuseContent(`holds ${fault.entry.name} compressed more than ${KMZ_RATIO_MAX} times, as a zip bomb is.`);
    case 'inflates-past':
      return refuseContent(`holds ${fault.entry.name}, which inflates past the size it declares, as a zip bomb does.`);
  }
  if ('entry' in fault) return refuseContent(`holds ${fault.entry.name}, which ${fault.sentence}`);
  return refuseContent(`is not a readable KMZ (zip) file: it ${fault.sentence}`);
}

const KMZ_LIMITS: ZipLimits = {
  entries: KMZ_ENTRIES_MAX,
  entryBytes: () => KMZ_KML_BYTES_MAX,
  totalBytes: KMZ_KML_BYTES_MAX,
  ratio: KMZ_RATIO_MAX,
  refuse: kmzRefusal,
};

/** doc.kml at the root, else the first .kml there. */
function chooseKml(entries: readonly ZipEntry[]): ZipEntry {
  const atRoot = entries.filter((e) => !e.name.replaceAll('\\', '/').includes('/') && /\.kml$/i.test(e.name));
  const kml = atRoot.find((e) => e.name.toLowerCase() === 'doc.kml') ?? atRoot[0];
  if (kml === undefined) throw refuseContent('is a zip without a .kml file at its root, so not a KMZ.');
  return kml;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Reads a KMZ's KML as readKml does, refusing what is not a safe zip of UTF-8 KML (400 at `content`). */
export function readKmz(bytes: Uint8Array): ImportedFile {
  const zip = new ZipReader(bytes, KMZ_LIMITS);
  const kml = chooseKml(zip.entries);
  const data = zip.inflate(kml);
  let text: string;
  try {
    text = UTF8.decode(data);
  } catch {
    throw refuseContent(`holds ${kml.name}, which is not UTF-8 text.`);
  }
  return readKml(text);
}
