import type { GuideRef } from '../../core/guide-contents.ts';
import type { Resource } from '../../core/resource.ts';
import type { Stores } from '../../core/stores.ts';
import { hikeOperations } from './hike.operations.ts';
import { routeMigrations } from './route.migration.ts';
import { routeOperations } from './route.operations.ts';
import type { StoredRoute } from './route.store.ts';
import { RoutesStore } from './route.store.ts';
import type { RouteFacilitiesTable, RouteSpotsTable, RoutesTable } from './route.tables.ts';
import { connectionOperations } from './route-connection.operations.ts';

export { routeModes } from './route.schema.ts';
export type { RouteKind, RouteRef, RoutesStore } from './route.store.ts';
export { routeDatedFacts } from './route.store.ts';

declare module '../../core/stores.ts' {
  interface Stores {
    /** Routes and hikes (one id space); `requireInGuide` checks a reference to either. */
    routes: RoutesStore;
  }
}

declare module '../../core/references.ts' {
  interface ReferenceTargets {
    /** A route or a hike about to be deleted (one table, one id space). */
    route: { guideId: string; routeId: string };
  }
}

declare module '../../db/tables.ts' {
  interface Database {
    routes: RoutesTable;
    route_spots: RouteSpotsTable;
    route_facilities: RouteFacilitiesTable;
  }
}

declare module '../../core/guide-contents.ts' {
  interface GuideParts {
    /** The guide's routes, then its hikes, each kind in its order; without their tracks. */
    routes: StoredRoute[];
    /** The same with each one's track: what buyers see. */
    routesWithTracks: StoredRoute[];
  }
}

/** Routes, then hikes: one read of each kind. */
async function routesOfGuide(stores: Stores, guide: GuideRef, includeTrack: boolean): Promise<StoredRoute[]> {
  const [routes, hikes] = await Promise.all([
    stores.routes.list(guide.id, 'route', { includeTrack }),
    stores.routes.list(guide.id, 'hike', { includeTrack }),
  ]);
  return [...routes, ...hikes];
}

export const routesResource: Resource = {
  tag: {
    name: 'routes',
    description: 'Routes and hikes (with their GPX tracks), the spots they link and the facilities on them',
  },
  operations: [...routeOperations, ...connectionOperations, ...hikeOperations],
  // Routes and hikes share one table and one id space: both are `route` in the history.
  history: {
    routes: {
      kind: 'route',
      beforeRemoving: (row, ctx) =>
        ctx.deleteReferencesTo('route', { guideId: String(row.guide_id), routeId: String(row.id) }),
    },
    route_spots: { kind: 'route', idColumn: 'route_id', part: true },
    route_facilities: { kind: 'route', idColumn: 'route_id', part: true },
  },
  stores: { routes: (scope) => new RoutesStore(scope) },
  usesStores: ['spots'],
  migrations: routeMigrations,
  guideParts: {
    routes: (stores, guide) => routesOfGuide(stores, guide, false),
    routesWithTracks: (stores, guide) => routesOfGuide(stores, guide, true),
  },
};
export { applyHikeFields } from './hike.patch.ts';
export { applyRouteFields } from './route.patch.ts';
export type { RouteWrite, StoredRoute } from './route.store.ts';
