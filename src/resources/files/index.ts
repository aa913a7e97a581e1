import type { Resource } from '../../core/resource.ts';
import { importGuide } from './archive/import-guide.operations.ts';
import { DownloadKey, DownloadLinksStore } from './download-link.store.ts';
import { exportDownloads } from './downloads.ts';
import { exportOperations } from './export.operations.ts';
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
    downloadLinks: DownloadLinksStore;
    importUploads: ImportUploadsStore;
  }
}

declare module '../../core/caches.ts' {
  interface Caches {
    /** The key download addresses are sealed with, read once per app (download-link.store.ts). */
    downloadKey: DownloadKey;
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
  operations: [...exportOperations, importGuide, importSpots, uploadImportFile],
  stores: {
    downloadLinks: (scope, { caches }) => new DownloadLinksStore(scope, caches.downloadKey),
    importUploads: (scope) => new ImportUploadsStore(scope),
  },
  caches: () => ({ downloadKey: new DownloadKey() }),
  // An export reads the whole guide (guideContents) or its live release; the archive writes a new
  // guide through each resource's own store; an import writes spots, hikes and collections.
  usesStores: [
    'areas',
    'chapters',
    'facilities',
    'guideContents',
    'guides',
    'itineraries',
    'media',
    'properties',
    'releases',
    'routes',
    'salesPage',
    'spots',
  ],
  downloads: exportDownloads,
  // A file waiting for its import is not part of the guide: no history, no undo.
  history: { import_uploads: 'untracked' },
  migrations: importUploadMigrations,
};
