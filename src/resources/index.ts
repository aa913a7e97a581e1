import type { Migration } from 'kysely/migration';
import type { Caches } from '../core/caches.ts';
import type { GuideAccess } from '../core/guide-access.ts';
import { GuideContentsReader, type GuidePartReaders } from '../core/guide-contents.ts';
import type { HistoryTables } from '../core/history.ts';
import type { OperationContext } from '../core/operation.ts';
import { type ReferenceKind, type ReferenceStep, stepsByKind } from '../core/references.ts';
import { Registry } from '../core/registry.ts';
import type { PublicDownloads, PublicFiles, PublicPages, Resource } from '../core/resource.ts';
import type { ServiceSettings, Services } from '../core/services.ts';
import { lazyStores, type StoreFactories, type StoreScope, type Stores } from '../core/stores.ts';
import { areasResource } from './areas/index.ts';
import { authoringResource } from './authoring/index.ts';
import { chaptersResource } from './chapters/index.ts';
import { facilitiesResource } from './facilities/index.ts';
import { filesResource } from './files/index.ts';
import { guideAccess, guidesResource } from './guides/index.ts';
import { historyResource } from './history/index.ts';
import { itinerariesResource } from './itineraries/index.ts';
import { linksResource } from './links/index.ts';
import { mediaResource } from './media/index.ts';
import { previewResource } from './preview/index.ts';
import { profileResource } from './profile/index.ts';
import { propertiesResource } from './properties/index.ts';
import { publishingResource } from './publishing/index.ts';
import { routesResource } from './routes/index.ts';
import { salesPageResource } from './sales-page/index.ts';
import { spotsResource } from './spots/index.ts';

/** The whole API, one line a resource, in the order the reference lists their operations. */
export const resources: readonly Resource[] = [
  profileResource,
  authoringResource,
  guidesResource,
  propertiesResource,
  spotsResource,
  areasResource,
  chaptersResource,
  facilitiesResource,
  routesResource,
  itinerariesResource,
  mediaResource,
  publishingResource,
  linksResource,
  salesPageResource,
  previewResource,
  historyResource,
  filesResource,
];

/**
 * The API's resources and, after them, any handed in beside them: a test's throwaway resource,
 * served like the others without a line here. Every function below takes the same extras.
 */
function withExtra(extra: readonly Resource[]): readonly Resource[] {
  return extra.length === 0 ? resources : [...resources, ...extra];
}

export function createRegistry(extra: readonly Resource[] = []): Registry {
  return new Registry(withExtra(extra));
}

/** Every resource's tables, as migrations named to run in order. */
export function resourceMigrations(extra: readonly Resource[] = []): Record<string, Migration> {
  return Object.assign({}, ...withExtra(extra).map((r) => r.migrations ?? {}));
}

/** Every resource's services, built from the settings. */
export function createServices(settings: ServiceSettings, extra: readonly Resource[] = []): Services {
  return Object.assign({}, ...withExtra(extra).map((r) => r.services?.(settings) ?? {})) as Services;
}

/** Every resource's caches, empty: once per app, so that no two apps share what they keep. */
export function createCaches(extra: readonly Resource[] = []): Caches {
  return Object.assign({}, ...withExtra(extra).map((r) => r.caches?.() ?? {})) as Caches;
}

/** Every resource's publicly served files. */
export function publicFiles(extra: readonly Resource[] = []): PublicFiles[] {
  return withExtra(extra).flatMap((r) => (r.publicFiles ? [r.publicFiles] : []));
}

/** Every resource's files served by short-lived address. */
export function publicDownloads(extra: readonly Resource[] = []): PublicDownloads[] {
  return withExtra(extra).flatMap((r) => (r.downloads ? [r.downloads] : []));
}

/** Every resource's public HTML pages. */
export function publicPages(extra: readonly Resource[] = []): PublicPages[] {
  return withExtra(extra).flatMap((r) => r.publicPages ?? []);
}

/**
 * Every resource's stores, built lazily per call, and beside them the reader of a whole guide that
 * reads every part a resource declares through them. Stores that keep what they read keep it in
 * `caches`: the app's (buildApp), or a set of their own for a caller without an app (the admin
 * command line's one transaction, which reads no cached view).
 */
export function createStores(
  extra: readonly Resource[] = [],
  caches: Caches = createCaches(extra),
): (scope: StoreScope) => Stores {
  const all = withExtra(extra);
  const parts: Partial<GuidePartReaders> = Object.assign({}, ...all.map((r) => r.guideParts ?? {}));
  return lazyStores(
    {
      ...Object.assign({}, ...all.map((r) => r.stores ?? {})),
      guideContents: (_scope, { stores }) => new GuideContentsReader(stores, parts),
    } as StoreFactories,
    caches,
    historyTables(extra),
  );
}

/** What every resource says about its tables' history (core/history.ts), by table. */
export function historyTables(extra: readonly Resource[] = []): HistoryTables {
  return Object.assign({}, ...withExtra(extra).map((r) => r.history ?? {}));
}

/** Every resource's declared references, by the kind of record they point at. */
export function heldReferences(
  extra: readonly Resource[] = [],
): ReadonlyMap<ReferenceKind, readonly ReferenceStep<OperationContext>[]> {
  return stepsByKind(withExtra(extra).flatMap((r) => r.references ?? []));
}

export const guides: GuideAccess = guideAccess;

export { probeBlobStore, pruneRetention, scheduleOrphanSweep } from './media/index.ts';
