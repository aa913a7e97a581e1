import { createHash } from 'node:crypto';
import { refuse } from '../../../core/errors.ts';
import {
  ARCHIVE_FILE_NAME,
  ARCHIVE_FORMAT,
  ARCHIVE_MAX_ENTRIES,
  ARCHIVE_MAX_INFLATED,
  ARCHIVE_VERSION,
  type ArchiveManifest,
  type ArchiveRecords,
  FILE_MAX_BYTES,
  MANIFEST_NAME,
  manifestSchema,
  RECORDS_MAX_BYTES,
  RECORDS_NAME,
} from './archive-format.ts';
import { checkRecordFields } from './record-fields.ts';
import { checkHeldIds } from './record-ids.ts';
import { checkRecordShapes } from './record-shapes.ts';
import { inflateEntry, type ZipEntry, zipEntries } from './zip-entries.ts';

/** An archive read and checked whole: what an import writes, nothing of it written yet. */
export interface ReadArchive {
  manifest: ArchiveManifest;
  records: ArchiveRecords;
  /** Each photo file's bytes by its name in the archive (`files/<key>.<ext>`). */
  files: Map<string, Buffer>;
}

const bad = (part: string, sentence: string) =>
  refuse(part === '' ? 'archive' : `archive ${part}`, `${sentence} Nothing was imported.`);

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Names, counts and declared sizes, checked before anything is inflated. */
function checkEntries(entries: readonly ZipEntry[]): void {
  const seen = new Set<string>();
  let total = 0;
  for (const entry of entries) {
    const { name } = entry;
    if (name !== MANIFEST_NAME && name !== RECORDS_NAME && !ARCHIVE_FILE_NAME.test(name)) {
      throw bad(
        `entry "${name}"`,
        `is not a name this archive holds (${MANIFEST_NAME}, ${RECORDS_NAME} or files/<key>.<ext>; no folders, no "..").`,
      );
    }
    if (seen.has(name)) throw bad(`entry "${name}"`, 'appears twice.');
    seen.add(name);
    const cap = name === RECORDS_NAME ? RECORDS_MAX_BYTES : name === MANIFEST_NAME ? RECORDS_MAX_BYTES : FILE_MAX_BYTES;
    if (entry.size > cap) throw bad(`entry "${name}"`, `declares ${entry.size} bytes; at most ${cap} are read.`);
    total += entry.size;
  }
  if (total > ARCHIVE_MAX_INFLATED) {
    throw bad('', `declares ${total} bytes once inflated; at most ${ARCHIVE_MAX_INFLATED} are read.`);
  }
}

function parseJson(bytes: Buffer, part: string): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    throw bad(part, 'is not JSON.');
  }
}

function readManifest(bytes: Buffer): ArchiveManifest {
  const raw = parseJson(bytes, MANIFEST_NAME) as Partial<ArchiveManifest> | null;
  if (raw?.format !== ARCHIVE_FORMAT)
    throw bad(MANIFEST_NAME, `is not a guide archive's (format "${ARCHIVE_FORMAT}").`);
  if (raw.formatVersion !== ARCHIVE_VERSION) {
    throw bad(
      MANIFEST_NAME,
      `has format version ${JSON.stringify(raw.formatVersion)}; this service reads version ${ARCHIVE_VERSION}.`,
    );
  }
  const parsed = manifestSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw bad(MANIFEST_NAME, `${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'does not match its format.'}`);
  }
  return parsed.data;
}

/** Every entry the manifest lists is there with its sha256, and nothing it does not list. */
function checkAgainstManifest(manifest: ArchiveManifest, entries: readonly ZipEntry[], read: (e: ZipEntry) => Buffer) {
  const byName = new Map(entries.map((e) => [e.name, e]));
  const listed = [manifest.records, ...manifest.files];
  const out = new Map<string, Buffer>();
  for (const { name, sha256: expected } of listed) {
    const entry = byName.get(name);
    if (!entry) throw bad(`entry "${name}"`, 'is listed in the manifest but missing from the archive.');
    const bytes = read(entry);
    if (sha256(bytes) !== expected) throw bad(`entry "${name}"`, "does not match the manifest's sha256.");
    out.set(name, bytes);
  }
  for (const name of byName.keys()) {
    if (name !== MANIFEST_NAME && !out.has(name)) throw bad(`entry "${name}"`, 'is not listed in the manifest.');
  }
  return out;
}

/** The records, shaped as an archive holds them (each part of the right kind). */
function readRecords(bytes: Buffer): ArchiveRecords {
  const records = parseJson(bytes, RECORDS_NAME) as Record<string, unknown> | null;
  const lists = ['properties', 'spots', 'places', 'routesWithTracks', 'chapters', 'photos', 'itineraries'];
  for (const part of [...lists, 'storedImages']) {
    if (!Array.isArray(records?.[part])) throw bad(`${RECORDS_NAME} ${part}`, 'is not a list.');
  }
  const guide = records?.guide as Record<string, unknown> | undefined;
  if (typeof guide !== 'object' || guide === null || typeof guide.name !== 'string' || !Array.isArray(guide.areas)) {
    throw bad(`${RECORDS_NAME} guide`, 'is not a guide record with its name and areas.');
  }
  return records as unknown as ArchiveRecords;
}

/**
 * Reads an uploaded archive whole, refusing (400, naming the part) what is not one this service
 * wrote: caps are checked on the central directory before inflating, every file against the
 * manifest's sha256, every id the records name against the records the archive holds.
 */
export function readArchive(zip: Buffer): ReadArchive {
  const entries = zipEntries(zip, ARCHIVE_MAX_ENTRIES);
  checkEntries(entries);
  const manifestEntry = entries.find((e) => e.name === MANIFEST_NAME);
  if (!manifestEntry) throw bad('', `holds no ${MANIFEST_NAME}: it is not a guide archive.`);
  const manifest = readManifest(inflateEntry(zip, manifestEntry));
  const files = checkAgainstManifest(manifest, entries, (entry) => inflateEntry(zip, entry));
  const records = readRecords(files.get(RECORDS_NAME) as Buffer);
  files.delete(RECORDS_NAME);
  checkRecordShapes(records, bad);
  checkRecordFields(records, bad);
  checkHeldIds(records, files, bad);
  return { manifest, records, files };
}
