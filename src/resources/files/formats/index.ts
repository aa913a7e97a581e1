import type { FileReader, ImportedFile, ImportFormat } from '../imported-file.ts';

/**
 * The reader of each format, loaded by the first file of that format rather than by the start (a
 * parser is a package most calls never need).
 */
export const fileReaders: Record<ImportFormat, () => Promise<FileReader>> = {
  geojson: async () => (await import('./geojson.ts')).readGeojson,
  csv: async () => (await import('./csv.ts')).readCsv,
  kml: async () => (await import('./kml.ts')).readKml,
  gpx: async () => (await import('./gpx.ts')).readGpx,
};

/** The KMZ reader (a zipped KML, uploaded as bytes), loaded by the first KMZ. */
export const kmzReader = async (): Promise<(bytes: Uint8Array) => ImportedFile> => (await import('./kmz.ts')).readKmz;
