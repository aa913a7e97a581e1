import type { Resource } from '../../core/resource.ts';
import type { BlobStore } from './blob-store.ts';
import { up } from './media.migration.ts';
import { mediaOperations } from './media.operations.ts';
import type { MediaRecord } from './media.store.ts';
import { MediaStore } from './media.store.ts';
import type { MediaTable } from './media.tables.ts';
import { MEDIA_PREFIX, openMediaFile } from './media-files.ts';
import { openBlobStore } from './open-blob-store.ts';
import * as retentionMigration from './retention.migration.ts';
import { ServedFileCache } from './served-files.ts';

declare module '../../core/stores.ts' {
  interface Stores {
    media: MediaStore;
  }
}

declare module '../../db/tables.ts' {
  interface Database {
    media: MediaTable;
  }
}

declare module '../../core/references.ts' {
  interface ReferenceTargets {
    photo: { guideId: string; mediaId: string };
  }
}

declare module '../../core/caches.ts' {
  interface Caches {
    /** Whether /media serves a file, while the embedded store commits nothing (served-files.ts). */
    servedFiles: ServedFileCache;
  }
}

declare module '../../core/services.ts' {
  interface Services {
    /** Where photo files live: the bucket (S3_BUCKET), else local disk under MEDIA_DIR or DATA_DIR/media. */
    blobs: BlobStore;
  }
}

declare module '../../core/guide-contents.ts' {
  interface GuideParts {
    /** Every photo of the guide, its spots' and areas' too. */
    photos: MediaRecord[];
  }
}

export const mediaResource: Resource = {
  tag: { name: 'media', description: 'Photos of spots, areas and places: uploads, credits and order' },
  operations: mediaOperations,
  history: {
    media: {
      kind: 'photo',
      beforeRemoving: (row, ctx) =>
        ctx.deleteReferencesTo('photo', { guideId: String(row.guide_id), mediaId: String(row.id) }),
    },
  },
  stores: { media: (scope, { caches }) => new MediaStore(scope, caches.servedFiles) },
  caches: () => ({ servedFiles: new ServedFileCache() }),
  // The guide names its thumbnail; retention (retention.ts) prunes releases and history.
  usesStores: ['changes', 'guides', 'releases'],
  guideParts: { photos: (stores, guide) => stores.media.listForGuide(guide.id) },
  migrations: { '0006-media': { up }, '0032-retention': retentionMigration },
  services: (settings) => ({ blobs: openBlobStore(settings) }),
  publicFiles: {
    prefix: MEDIA_PREFIX,
    open: (name, { services, stores }) =>
      openMediaFile(services.blobs, name, (key, path) => stores.media.isServed(key, path)),
  },
};

export type { BlobStore } from './blob-store.ts';
export { DISPLAY_SIZES } from './image-pipeline.ts';
export { mediaMetaFields } from './media.schema.ts';
export { type MediaRecord, photoCountOfGuide, type StoredImage } from './media.store.ts';
export {
  absoluteUrl,
  type FileUrls,
  fileUrl,
  keysOf,
  mediaKeysInJson,
  mediaPath,
  urlsOf,
  withFileUrls,
} from './media-files.ts';
export { copyBlobs, lazyLocalBlobStore, mediaRoot, openBlobStore, probeBlobStore } from './open-blob-store.ts';
export { ORPHAN_MIN_AGE_MS, scheduleOrphanSweep, sweepOrphanFiles, sweepOrphanFilesAlone } from './orphan-sweep.ts';
export { type Pruned, pruneRetention } from './retention.ts';
export { servedFileQuery } from './served-files.ts';
export {
  clearGuideThumbnail,
  discardThumbnail,
  type PreparedThumbnail,
  prepareThumbnail,
  setGuideThumbnail,
} from './thumbnail.ts';
