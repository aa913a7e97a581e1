import { z } from 'zod';
import type { GuideParts } from '../../../core/guide-contents.ts';

/**
 * The guide archive (issue 30): one zip a creator keeps, and `POST /guides/import` reads back.
 *   manifest.json  what the archive holds: format and version, the guide, counts, every file's sha256
 *   records.json   the guide's records as the whole-guide reader reads them (ArchiveRecords)
 *   files/<key>    every photo file as stored (originals and display sizes), named by its blob key
 */

export const ARCHIVE_FORMAT = 'creator-api-guide-archive';
export const ARCHIVE_VERSION = 1;
export const MANIFEST_NAME = 'manifest.json';
export const RECORDS_NAME = 'records.json';
export const FILES_FOLDER = 'files/';

const MIB = 1024 * 1024;
/** The largest archive an import takes: the upload's body limit. */
export const ARCHIVE_MAX_BYTES = 256 * MIB;
/** Entries one archive may hold: the manifest, the records and four files for each of 2,000 photos. */
export const ARCHIVE_MAX_ENTRIES = 8002;
/** What every entry inflates to at most, in all: bounded before and while inflating. */
export const ARCHIVE_MAX_INFLATED = 512 * MIB;
/** The records' JSON at most: the guide caps keep a real guide far under it. */
export const RECORDS_MAX_BYTES = 64 * MIB;
/** One photo file at most: an original is at most 6 MB as uploaded. */
export const FILE_MAX_BYTES = 8 * MIB;

/** The parts of a guide an archive keeps, each as the whole-guide reader reads it. */
export const ARCHIVED_PARTS = [
  'guide',
  'properties',
  'spots',
  'places',
  'routesWithTracks',
  'chapters',
  'photos',
  'itineraries',
  'salesPage',
] as const satisfies readonly (keyof GuideParts)[];

/** A stored image (chapter cover, intro photo) the records name by its storageId. */
export interface ArchivedImage {
  storageId: string;
  width: number;
  height: number;
  files: GuideParts['photos'][number]['files'];
}

export type ArchiveRecords = Pick<GuideParts, (typeof ARCHIVED_PARTS)[number]> & { storedImages: ArchivedImage[] };

/** A file name inside the archive: a blob key and its extension, nothing that could climb out of a folder. */
export const ARCHIVE_FILE_NAME = /^files\/[A-Za-z0-9_-]{8,128}\.[a-z]{2,4}$/;

const sha256Schema = z.string().regex(/^[0-9a-f]{64}$/);

export const manifestSchema = z.object({
  format: z.literal(ARCHIVE_FORMAT),
  formatVersion: z.number(),
  guideId: z.string(),
  from: z.enum(['working', 'live']),
  exportedAt: z.string(),
  counts: z.record(z.string(), z.number()),
  records: z.object({ name: z.literal(RECORDS_NAME), bytes: z.number(), sha256: sha256Schema }),
  files: z.array(z.object({ name: z.string().regex(ARCHIVE_FILE_NAME), bytes: z.number(), sha256: sha256Schema })),
});

export type ArchiveManifest = z.infer<typeof manifestSchema>;
