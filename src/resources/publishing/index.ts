import type { Resource } from '../../core/resource.ts';
import { publishOperations } from './publishing.operations.ts';
import * as publishingMigration from './release.migration.ts';
import { ReleasesStore } from './release.store.ts';
import type { ReleaseFilesTable, ReleasesTable } from './release.tables.ts';
import { ReleaseAddressCache } from './release-addresses.ts';
import * as releaseFilesMigration from './release-files.migration.ts';
import * as releasePartsMigration from './release-parts.migration.ts';
import { publishingOperations } from './stale-notice.operations.ts';

declare module '../../core/stores.ts' {
  interface Stores {
    releases: ReleasesStore;
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
  }
}

export const publishingResource: Resource = {
  tag: {
    name: 'publishing',
    description: 'What to check before publishing (stale facts, readiness) and publishing itself',
  },
  operations: [...publishingOperations, ...publishOperations],
  // What was published is not the working copy: releases are kept by their own rules.
  history: { releases: 'untracked', release_files: 'untracked' },
  stores: { releases: (scope, { caches }) => new ReleasesStore(scope, caches.releaseAddresses) },
  caches: () => ({ releaseAddresses: new ReleaseAddressCache() }),
  // The whole guide comes through guideContents (readiness, the snapshot); stale notices read the dated facts.
  usesStores: ['areas', 'creators', 'facilities', 'guideContents', 'guides', 'routes', 'spots'],
  migrations: {
    '0010-publishing': publishingMigration,
    '0013-release-parts': releasePartsMigration,
    '0014-release-files': releaseFilesMigration,
  },
};

export { type GuideContents, readGuideContents } from './guide-contents.ts';
export { blockingGates, type Gate, type PublishResult, publishRelease } from './publish-gates.ts';
export { readinessRules } from './readiness.rules.ts';
export { blockingCodes, type Finding, type FindingCode, findingCodes, readinessOf } from './readiness.ts';
export type { ReadinessRule } from './readiness-rule.ts';
export type { Release, ReleaseInfo, ReleasesStore } from './release.store.ts';
export { type ReleaseKind, type Snapshot, serializeSnapshot, snapshotRows } from './snapshot.ts';
