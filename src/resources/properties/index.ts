import type { Resource } from '../../core/resource.ts';
import { propertyOperations } from './property.operations.ts';
import type { OwnedProperty } from './property.store.ts';
import { PropertiesStore } from './property.store.ts';
import type { PropertyDefsTable } from './property.tables.ts';

declare module '../../core/stores.ts' {
  interface Stores {
    properties: PropertiesStore;
  }
}

declare module '../../db/tables.ts' {
  interface Database {
    property_defs: PropertyDefsTable;
  }
}

declare module '../../core/guide-contents.ts' {
  interface GuideParts {
    /** The guide's custom spot properties, archived ones included. */
    properties: OwnedProperty[];
  }
}

export const propertiesResource: Resource = {
  tag: { name: 'properties', description: 'Custom spot properties of a guide' },
  operations: propertyOperations,
  history: { property_defs: { kind: 'property' } },
  stores: { properties: (s) => new PropertiesStore(s) },
  usesStores: ['guides', 'spots'],
  guideParts: { properties: (stores, guide) => stores.properties.listForGuide(guide.id) },
};

export { type CustomValues, CustomValuesWriter } from './custom-values.ts';
export { propertySchema } from './property.schema.ts';
export { propertiesFromJson, propertiesOfGuide } from './property.store.ts';
