import type { Resource } from '../../core/resource.ts';
import { importSpots } from './import.operations.ts';
import { importUploadMigrations } from './import-upload.migration.ts';
import { uploadImportFile } from './import-upload.operations.ts';
import { ImportUploadsStore } from './import-upload.store.ts';
import type { ImportUploadsTable } from './import-upload.tables.ts';

export type {
  FileReader,
  ImportedFeature,
  ImportedFile,
  ImportedLine,
  ImportedPoint,
  ImportFormat,
} from './imported-file.ts';

declare module '../../core/stores.ts' {
  interface Stores {
    importUploads: ImportUploadsStore;
  }
}

declare module '../../db/tables.ts' {
  interface Database {
    import_uploads: ImportUploadsTable;
  }
}

/**
 * Files in and out of a guide (issue 30): places brought in from the files creators already have
 * (GeoJSON, KML/KMZ, GPX, CSV), and the guide taken out for map apps or kept whole as an archive.
 */
export const filesResource: Resource = {
  tag: {
    name: 'files',
    description: 'Bringing places in from map files and spreadsheets, and taking the guide out again',
  },
  operations: [importSpots, uploadImportFile],
  stores: { importUploads: (scope) => new ImportUploadsStore(scope) },
  usesStores: ['areas', 'chapters', 'routes'],
  // A file waiting for its import is not part of the guide: no history, no undo.
  history: { import_uploads: 'untracked' },
  migrations: importUploadMigrations,
};
