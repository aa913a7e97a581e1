import type { Resource } from '../../core/resource.ts';
import { hikeOperations } from './hike.operations.ts';
import { routeMigrations } from './route.migration.ts';
import { routeOperations } from './route.operations.ts';
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

export const routesResource: Resource = {
  tag: {
    name: 'routes',
    description: 'Routes and hikes (with their GPX tracks), the spots they link and the facilities on them',
  },
  operations: [...routeOperations, ...connectionOperations, ...hikeOperations],
  stores: { routes: (scope) => new RoutesStore(scope) },
  usesStores: ['spots'],
  migrations: routeMigrations,
};
