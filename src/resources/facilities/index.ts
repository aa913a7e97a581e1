import type { Resource } from '../../core/resource.ts';
import { placeOperations } from './facility.operations.ts';
import { PlacesStore } from './facility.store.ts';
import type { FacilitiesTable, FacilitySpotsTable } from './facility.tables.ts';

declare module '../../core/stores.ts' {
  interface Stores {
    places: PlacesStore;
  }
}

declare module '../../db/tables.ts' {
  interface Database {
    facilities: FacilitiesTable;
    facility_spots: FacilitySpotsTable;
  }
}

export const placesResource: Resource = {
  tag: { name: 'facilities', description: 'Places that serve spots: huts, cable cars, activities, food, parking' },
  operations: placeOperations,
  stores: { places: (s) => new PlacesStore(s) },
};
