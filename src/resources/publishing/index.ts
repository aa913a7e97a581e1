import type { Resource } from '../../core/resource.ts';
import { publishingOperations } from './operations.ts';
import { publishOperations } from './publish-operations.ts';
import * as publishingMigration from './publishing.migration.ts';
import type { ReleaseFilesTable, ReleasesTable } from './release.tables.ts';
import * as releaseFilesMigration from './release-files.migration.ts';
import * as releasePartsMigration from './release-parts.migration.ts';
import { ReleasesStore } from './releases.store.ts';

declare module '../../core/stores.ts' {
  interface Stores {
    releases: ReleasesStore;
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
  stores: { releases: (scope) => new ReleasesStore(scope) },
  migrations: {
    '0010-publishing': publishingMigration,
    '0013-release-parts': releasePartsMigration,
    '0014-release-files': releaseFilesMigration,
  },
};

export { type PublishResult, publishRelease } from './publish-gates.ts';
export { blockingCodes, type FindingCode, findingCodes } from './readiness.ts';
export type { ReadinessRule } from './readiness-rule.ts';
export { readinessRules } from './readiness-rules.ts';
export type { Release, ReleaseInfo, ReleasesStore } from './releases.store.ts';
export type { Snapshot } from './snapshot.ts';
