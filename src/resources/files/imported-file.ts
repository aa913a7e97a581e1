import type { Position } from '../../shared/tracks/track.schema.ts';

/**
 * What a file of places becomes before anything is written (issue 30): one reader per format
 * (formats/*.ts) turns a file into these, and `import_spots` alone decides what they become in the
 * guide. Readers keep what the file says exactly (text as written, coordinates unrounded) and
 * invent nothing: a field the file lacks is undefined.
 */

export const importFormats = ['geojson', 'kml', 'gpx', 'csv'] as const;
export type ImportFormat = (typeof importFormats)[number];

/**
 * The most features one file may hold: a reader stops and refuses the file past it, so a file of
 * 100,000 features costs no more than this many.
 */
export const IMPORT_FEATURES_MAX = 5000;

/** Simple values a file can carry per feature (ExtendedData, GeoJSON properties, CSV columns). */
export type ImportedValue = string | number | boolean | null;

interface ImportedBase {
  /** Where in the file, for a reason a feature is skipped: "Placemark 12", "row 7", "feature 3". */
  where: string;
  name: string | undefined;
  description: string | undefined;
  /** The file's own id for it (GeoJSON `id`, KML Placemark `id`, an `id` column): keyFrom id-property. */
  sourceId: string | undefined;
  /** Everything else the file says of it, by the file's own names. */
  properties: Record<string, ImportedValue>;
  /** The folder path it sits in (KML Folders joined by " / "), when the format has folders. */
  folder: string | undefined;
}

/** A place: becomes a spot. No position (undefined) is skipped with a reason, not guessed. */
export interface ImportedPoint extends ImportedBase {
  kind: 'point';
  lon: number | undefined;
  lat: number | undefined;
}

/** A line (GPX track or route, KML LineString): becomes a route or a hike. Positions are [lon, lat, ele?]. */
export interface ImportedLine extends ImportedBase {
  kind: 'line';
  points: Position[];
}

export type ImportedFeature = ImportedPoint | ImportedLine;

/** A file read: its features in file order, and what the reader passed over and why. */
export interface ImportedFile {
  features: ImportedFeature[];
  skipped: { where: string; reason: string }[];
}

/**
 * A reader of one format. Throws ApiError 400 (`invalid_request`, naming `content`: `refuse`) for a file
 * that is not of its format or is hostile (entities, depth, more than IMPORT_FEATURES_MAX
 * features); never reads more than the file's own size of work.
 */
export type FileReader = (content: string) => ImportedFile;
