import type { Resource } from '../../core/resource.ts';
import { placeOperations } from './operations.ts';
import { PlacesStore } from './places.store.ts';

declare module '../../core/stores.ts' {
  interface Stores {
    places: PlacesStore;
  }
}

export const placesResource: Resource = {
  tag: { name: 'facilities', description: 'Places that serve spots: huts, cable cars, activities, food, parking' },
  operations: placeOperations,
  stores: { places: (s) => new PlacesStore(s) },
};
