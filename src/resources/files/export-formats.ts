import type { Readable } from 'node:stream';
import type { Services } from '../../core/services.ts';
import type { Stores } from '../../core/stores.ts';

/** What `export_guide` makes (issue 30): three map formats, and the whole guide as an archive. */
export const exportFormats = ['geojson', 'kml', 'gpx', 'archive'] as const;
export type ExportFormat = (typeof exportFormats)[number];

/** The working copy (what the creator edits) or the live release (what buyers have). */
export const exportSources = ['working', 'live'] as const;
export type ExportFrom = (typeof exportSources)[number];

/** How many records of each kind the file holds. */
export interface ExportCounts {
  spots: number;
  areas: number;
  routes: number;
  hikes: number;
}

/** A file written: its bytes, what it holds, and what its format could not hold (short sentences). */
export interface WrittenFile {
  /** A map file's text, or an archive's zip as it is written (photo files read as it is read). */
  body: Buffer | Readable;
  /** The body's length; an archive's is its records and files before the records are compressed. */
  byteSize: number;
  counts: ExportCounts;
  leftOut: string[];
}

/** The guide a writer writes, as one call or one download sees it. */
export interface ExportRequest {
  guide: { id: string; creatorId: string };
  from: ExportFrom;
  stores: Stores;
  services: Services;
  /** When it is written (Unix ms). */
  now: number;
}

/**
 * One format's writer. It reads what it needs itself (a map format the guide's places and lines,
 * the archive every record and photo), so each format reads only what it writes.
 */
export interface ExportWriter {
  contentType: string;
  /** The file name's extension, without the dot. */
  extension: string;
  write(request: ExportRequest): Promise<WrittenFile & { fileStem: string }>;
}

/** The writers by format. */
export type ExportWriters = Record<ExportFormat, ExportWriter>;
