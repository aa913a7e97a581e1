import type { Resource } from '../../core/resource.ts';
import { publishOperations } from './publishing.operations.ts';
import * as publishingMigration from './release.migration.ts';
import { ReleasesStore } from './release.store.ts';
import type { ReleaseFilesTable, ReleaseImagesTable, ReleasesTable } from './release.tables.ts';
import { ReleaseAddressCache } from './release-addresses.ts';
import * as releaseFilesMigration from './release-files.migration.ts';
import * as releaseImageMigration from './release-image.migration.ts';
import * as releasePartsMigration from './release-parts.migration.ts';
import { releasesOperations } from './releases.operations.ts';
import { publishingOperations } from './stale-notice.operations.ts';
import { WorkingCopyStore } from './working-copy.store.ts';

declare module '../../core/stores.ts' {
  interface Stores {
    releases: ReleasesStore;
    workingCopy: WorkingCopyStore;
  }
}

declare module '../../core/caches.ts' {
  interface Caches {
    /** The guide at each sales-page address, while the embedded store commits nothing (release-addresses.ts). */
    releaseAddresses: ReleaseAddressCache;
  }
}

declare module '../../db/tables.ts' {
  interface Database {
    releases: ReleasesTable;
    release_files: ReleaseFilesTable;
    release_images: ReleaseImagesTable;
  }
}

export const publishingResource: Resource = {
  tag: {
    name: 'publishing',
    description: 'What to check before publishing (stale facts, readiness) and publishing itself',
  },
  operations: [...publishingOperations, ...publishOperations, ...releasesOperations],
  // What was published is not the working copy: releases are kept by their own rules.
  history: { releases: 'untracked', release_files: 'untracked', release_images: 'untracked' },
  stores: {
    releases: (scope, { caches }) => new ReleasesStore(scope, caches.releaseAddresses),
    workingCopy: (scope, { history }) => new WorkingCopyStore(scope, history),
  },
  caches: () => ({ releaseAddresses: new ReleaseAddressCache() }),
  // The whole guide comes through guideContents (readiness, the snapshot); stale notices read the dated facts;
  // a restore writes rows with the history's row primitives (changes).
  usesStores: ['areas', 'changes', 'creators', 'facilities', 'guideContents', 'guides', 'routes', 'spots'],
  migrations: {
    '0010-publishing': publishingMigration,
    '0013-release-parts': releasePartsMigration,
    '0014-release-files': releaseFilesMigration,
    '0031-release-images': releaseImageMigration,
  },
};

export { type GuideContents, readGuideContents } from './guide-contents.ts';
export { blockingGates, type Gate, type PublishResult, publishRelease } from './publish-gates.ts';
export { readinessRules } from './readiness.rules.ts';
export { blockingCodes, type Finding, type FindingCode, findingCodes, readinessOf } from './readiness.ts';
export type { ReadinessRule } from './readiness-rule.ts';
export type { Release, ReleaseInfo, ReleasesStore } from './release.store.ts';
export { getRelease, listReleases, restoreReleaseOperation } from './releases.operations.ts';
export { type ReleaseKind, type Snapshot, serializeSnapshot, snapshotRows } from './snapshot.ts';
