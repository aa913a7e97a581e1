import type { FileReader, ImportFormat } from '../imported-file.ts';

/**
 * The reader of each format, loaded by the first file of that format rather than by the start (a
 * parser is a package most calls never need). A format with no reader yet is absent: import_spots
 * answers 400 naming `format`.
 */
export const fileReaders: Partial<Record<ImportFormat, () => Promise<FileReader>>> = {
  geojson: async () => (await import('./geojson.ts')).readGeojson,
  csv: async () => (await import('./csv.ts')).readCsv,
};
