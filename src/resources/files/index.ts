import type { Resource } from '../../core/resource.ts';
import { importGuide } from './archive/import-guide.operations.ts';

export type {
  FileReader,
  ImportedFeature,
  ImportedFile,
  ImportedLine,
  ImportedPoint,
  ImportFormat,
} from './imported-file.ts';

/**
 * Files in and out of a guide (issue 30): places brought in from the files creators already have
 * (GeoJSON, KML/KMZ, GPX, CSV), and the guide taken out for map apps or kept whole as an archive.
 */
export const filesResource: Resource = {
  tag: {
    name: 'files',
    description: 'Bringing places in from map files and spreadsheets, and taking the guide out again',
  },
  operations: [importGuide],
  // The archive reads a guide whole and writes a new one through each resource's own store.
  usesStores: [
    'areas',
    'chapters',
    'facilities',
    'guideContents',
    'guides',
    'itineraries',
    'media',
    'properties',
    'routes',
    'salesPage',
    'spots',
  ],
};

export { type GuideArchive, writeGuideArchive } from './archive/archive-writer.ts';
