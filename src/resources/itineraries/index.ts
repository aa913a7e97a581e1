import type { Resource } from '../../core/resource.ts';
import * as itinerariesMigration from './itinerary.migration.ts';
import { itineraryOperations } from './itinerary.operations.ts';
import type { OwnedItinerary } from './itinerary.store.ts';
import { ItinerariesStore } from './itinerary.store.ts';
import type { ItinerariesTable } from './itinerary.tables.ts';

export type { ItinerariesStore } from './itinerary.store.ts';
export type { StopTarget } from './stop-targets.ts';

declare module '../../core/stores.ts' {
  interface Stores {
    /** Itineraries; `removeTarget` takes a deleted spot, place, route or hike out of their days. */
    itineraries: ItinerariesStore;
  }
}

declare module '../../db/tables.ts' {
  interface Database {
    itineraries: ItinerariesTable;
  }
}

declare module '../../core/guide-contents.ts' {
  interface GuideParts {
    itineraries: OwnedItinerary[];
  }
}

export const itinerariesResource: Resource = {
  tag: { name: 'itineraries', description: 'Itineraries: suggested days of spots, routes and hikes' },
  operations: itineraryOperations,
  stores: { itineraries: (scope) => new ItinerariesStore(scope) },
  guideParts: { itineraries: (stores, guide) => stores.itineraries.list(guide.id) },
  migrations: { '0009-itineraries': itinerariesMigration },
};
