import type { Resource } from '../../core/resource.ts';
import { spotOperations } from './spot.operations.ts';
import { SpotsStore } from './spot.store.ts';
import type { SpotsTable } from './spot.tables.ts';

declare module '../../core/stores.ts' {
  interface Stores {
    spots: SpotsStore;
  }
}

declare module '../../db/tables.ts' {
  interface Database {
    spots: SpotsTable;
  }
}

export const spotsResource: Resource = {
  tag: { name: 'spots', description: 'Spots: the places a guide describes' },
  operations: spotOperations,
  stores: { spots: (s) => new SpotsStore(s) },
};
export { spotCountOfGuide } from './spot.store.ts';
