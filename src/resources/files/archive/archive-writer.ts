import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import { refuse } from '../../../core/errors.ts';
import type { Services } from '../../../core/services.ts';
import type { Stores } from '../../../core/stores.ts';
import {
  ARCHIVE_FORMAT,
  ARCHIVE_VERSION,
  ARCHIVED_PARTS,
  type ArchivedImage,
  type ArchiveManifest,
  type ArchiveRecords,
  MANIFEST_NAME,
  RECORDS_NAME,
} from './archive-format.ts';
import { archiveNameOf, countsOf, filesOf, idsNamedIn } from './record-ids.ts';

/** A guide archive on its way out: a stream of the zip, read once, with what a download names it. */
export interface GuideArchive {
  fileName: string;
  contentType: 'application/zip';
  /** The zip as it is written: photo files are read from the blob store one at a time as it is read. */
  stream: Readable;
  counts: Record<string, number>;
  /** Its records and files before the records are compressed: what a download will about weigh. */
  contentBytes: number;
  /** Its spots, areas, routes and hikes, as export_guide counts every format's. */
  mapCounts: { spots: number; areas: number; routes: number; hikes: number };
}

/** The guide archived, already checked to be the caller's, and what reads it. */
export interface ArchiveSource {
  guide: { id: string; creatorId: string };
  stores: Stores;
  services: Services;
  /** When it is written (Unix ms): the manifest's exportedAt and the file's date. */
  now: number;
}

interface Entry {
  name: string;
  bytes: Uint8Array;
  /** Photo files are compressed already: they are stored as they are. */
  deflate: boolean;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** The zip of the entries as they come, chunk by chunk, each chunk handed on before the next file is read. */
async function* zipped(entries: AsyncIterable<Entry>): AsyncGenerator<Buffer> {
  const out: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((err, chunk) => {
    if (err) failure = err;
    else out.push(chunk);
  });
  for await (const entry of entries) {
    const file = entry.deflate ? new ZipDeflate(entry.name, { level: 6 }) : new ZipPassThrough(entry.name);
    zip.add(file);
    file.push(entry.bytes, true);
    if (failure) throw failure;
    for (const chunk of out.splice(0)) yield Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  }
  zip.end();
  for (const chunk of out.splice(0)) yield Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

/** The stored images (chapter covers, intro photos) the records name by storageId. */
async function storedImagesOf(stores: Stores, creatorId: string, named: Iterable<string>) {
  const images: ArchivedImage[] = [];
  for (const id of named) {
    if (!id.startsWith('sto_')) continue;
    const image = await stores.media.blobOf(creatorId, id);
    if (image)
      images.push({ storageId: image.storageId, width: image.width, height: image.height, files: image.files });
  }
  return images;
}

/**
 * The whole guide as one zip a creator keeps (issue 30): its records read through the whole-guide
 * reader, now, on the call's stores, and every photo file (originals and display sizes, as stored)
 * read from the blob store as the stream is read. The manifest comes last, since it carries each
 * file's sha256 as written. Only the working copy is archived: see docs/decisions/files.md.
 */
export async function writeGuideArchive(source: ArchiveSource, from: 'working' | 'live'): Promise<GuideArchive> {
  const { guide: owned, stores, services } = source;
  if (from === 'live') {
    throw refuse(
      'from',
      'an archive keeps the working copy whole; the live release leaves out research notes and archived records, so it could not give the guide back. Send from=working.',
    );
  }
  const parts = await stores.guideContents.read(owned, ARCHIVED_PARTS);
  const guide = parts.guide;
  const records: ArchiveRecords = {
    ...parts,
    // The store thumbnail is a cut of a photo made for the store listing, which an import does not carry.
    guide: { ...parts.guide, thumbnailUrl: null },
    storedImages: await storedImagesOf(stores, owned.creatorId, idsNamedIn(parts)),
  };
  const counts = countsOf(records);
  const recordBytes = Buffer.from(JSON.stringify(records));
  const exportedAt = new Date(source.now).toISOString();
  const blobs = services.blobs;
  const files = filesOf(records);

  async function* entries(): AsyncGenerator<Entry> {
    yield { name: RECORDS_NAME, bytes: recordBytes, deflate: true };
    const listed: ArchiveManifest['files'] = [];
    for (const file of files) {
      const blob = await blobs.get(file.key);
      if (!blob) throw new Error(`photo file ${file.key} of guide ${owned.id} is missing from the blob store`);
      const name = archiveNameOf(file);
      listed.push({ name, bytes: blob.bytes.length, sha256: sha256(blob.bytes) });
      yield { name, bytes: blob.bytes, deflate: false };
    }
    const manifest: ArchiveManifest = {
      format: ARCHIVE_FORMAT,
      formatVersion: ARCHIVE_VERSION,
      guideId: owned.id,
      from,
      exportedAt,
      counts,
      records: { name: RECORDS_NAME, bytes: recordBytes.length, sha256: sha256(recordBytes) },
      files: listed,
    };
    yield { name: MANIFEST_NAME, bytes: Buffer.from(JSON.stringify(manifest, null, 2)), deflate: true };
  }

  return {
    fileName: `${guide.slug}-${exportedAt.slice(0, 10)}.zip`,
    contentType: 'application/zip',
    stream: Readable.from(zipped(entries())),
    counts,
    contentBytes: files.reduce((sum, file) => sum + file.bytes, recordBytes.length),
    mapCounts: {
      spots: counts.spots ?? 0,
      areas: counts.areas ?? 0,
      routes: records.routesWithTracks.filter((r) => r.kind !== 'hike').length,
      hikes: records.routesWithTracks.filter((r) => r.kind === 'hike').length,
    },
  };
}
