import type { Resource } from '../../core/resource.ts';

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
  operations: [],
};
