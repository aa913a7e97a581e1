import { createHash } from 'node:crypto';
import { refuse } from '../../../core/errors.ts';
import { type ZipEntry, type ZipFault, type ZipLimits, ZipReader } from '../zip-reader.ts';
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

/** The names an archive holds; what the zip reader refuses as a path out of it is refused in these words too. */
const NAME_RULE = `is not a name this archive holds (${MANIFEST_NAME}, ${RECORDS_NAME} or files/<key>.<ext>; no folders, no "..").`;

/** The zip reader's refusals in the archive's words: the entry at fault, and that nothing was imported. */
const archiveRefusal = (fault: ZipFault) =>
  bad('entry' in fault ? `entry "${fault.entry.name}"` : '', fault.kind === 'name' ? NAME_RULE : fault.sentence);

const ARCHIVE_LIMITS: ZipLimits = {
  entries: ARCHIVE_MAX_ENTRIES,
  entryBytes: (name) => (name === RECORDS_NAME || name === MANIFEST_NAME ? RECORDS_MAX_BYTES : FILE_MAX_BYTES),
  totalBytes: ARCHIVE_MAX_INFLATED,
  // No ratio: the caps above are what bound an archive's cost; a ratio would only make a bomb
  // reaching them a few times bigger on the wire (docs/decisions/files.md, One zip reader).
  refuse: archiveRefusal,
};

/** Every name is one this archive holds (the reader has refused duplicates and paths out of it). */
function checkNames(entries: readonly ZipEntry[]): void {
  for (const { name } of entries) {
    if (name !== MANIFEST_NAME && name !== RECORDS_NAME && !ARCHIVE_FILE_NAME.test(name)) {
      throw bad(`entry "${name}"`, NAME_RULE);
    }
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
export function readArchive(bytes: Buffer): ReadArchive {
  const zip = new ZipReader(bytes, ARCHIVE_LIMITS);
  checkNames(zip.entries);
  zip.checkSizes(zip.entries);
  const manifestEntry = zip.entries.find((e) => e.name === MANIFEST_NAME);
  if (!manifestEntry) throw bad('', `holds no ${MANIFEST_NAME}: it is not a guide archive.`);
  const manifest = readManifest(zip.inflate(manifestEntry));
  const files = checkAgainstManifest(manifest, zip.entries, (entry) => zip.inflate(entry));
  const records = readRecords(files.get(RECORDS_NAME) as Buffer);
  files.delete(RECORDS_NAME);
  checkRecordShapes(records, bad);
  checkRecordFields(records, bad);
  checkHeldIds(records, files, bad);
  return { manifest, records, files };
}
