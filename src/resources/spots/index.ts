import type { Resource } from '../../core/resource.ts';
import { spotOperations } from './operations.ts';
import { SpotsStore } from './spots.store.ts';

declare module '../../core/stores.ts' {
  interface Stores {
    spots: SpotsStore;
  }
}

export const spotsResource: Resource = {
  tag: { name: 'spots', description: 'Spots: the places a guide describes' },
  operations: spotOperations,
  stores: { spots: (s) => new SpotsStore(s) },
};
export { spotCountOfGuide } from './spots.store.ts';
