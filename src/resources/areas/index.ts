import type { Resource } from '../../core/resource.ts';
import { AreasStore } from './areas.store.ts';
import { areaOperations } from './operations.ts';

declare module '../../core/stores.ts' {
  interface Stores {
    areas: AreasStore;
  }
}

export const areasResource: Resource = {
  tag: {
    name: 'areas',
    description: 'Areas (parks, islands, regions) whose rules, fees and notices apply to their spots',
  },
  operations: areaOperations,
  stores: { areas: (s) => new AreasStore(s) },
};

export { type Area, areaSchema } from './area.schema.ts';
export { areasFromJson, areasOfGuide } from './areas.store.ts';
