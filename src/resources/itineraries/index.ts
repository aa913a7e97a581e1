import type { Resource } from '../../core/resource.ts';
import * as itinerariesMigration from './itinerary.migration.ts';
import { itineraryOperations } from './itinerary.operations.ts';
import type { OwnedItinerary } from './itinerary.store.ts';
import { ItinerariesStore } from './itinerary.store.ts';
import type { ItinerariesTable } from './itinerary.tables.ts';

export type { ItinerariesStore } from './itinerary.store.ts';

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
  history: { itineraries: { kind: 'itinerary', spliced: ['days', 'body', 'description'] } },
  stores: { itineraries: (scope) => new ItinerariesStore(scope) },
  usesStores: ['media', 'routes', 'spots'],
  references: [
    // Days name spots (by key), places and routes or hikes as stops; an overnight names a place.
    {
      to: 'spot',
      onDelete: (spot, ctx) => ctx.stores.itineraries.removeTarget(spot.guideId, { kind: 'spot', id: spot.spotKey }),
    },
    {
      to: 'facility',
      onDelete: (place, ctx) =>
        ctx.stores.itineraries.removeTarget(place.guideId, { kind: 'place', id: place.facilityId, name: place.name }),
    },
    {
      to: 'route',
      onDelete: (route, ctx) =>
        ctx.stores.itineraries.removeTarget(route.guideId, { kind: 'route', id: route.routeId }),
    },
  ],
  guideParts: { itineraries: (stores, guide) => stores.itineraries.list(guide.id) },
  migrations: { '0009-itineraries': itinerariesMigration },
};
