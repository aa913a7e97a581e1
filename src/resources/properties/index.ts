import type { Resource } from '../../core/resource.ts';
import { propertyOperations } from './operations.ts';
import { PropertiesStore } from './properties.store.ts';

declare module '../../core/stores.ts' {
  interface Stores {
    properties: PropertiesStore;
  }
}

export const propertiesResource: Resource = {
  tag: { name: 'properties', description: 'Custom spot properties of a guide' },
  operations: propertyOperations,
  stores: { properties: (s) => new PropertiesStore(s) },
};

export { type CustomValues, CustomValuesWriter } from './custom-values.ts';
export { propertiesFromJson, propertiesOfGuide } from './properties.store.ts';
export { propertySchema } from './property.schema.ts';
