import { Registry } from '../core/registry.ts';
import { areaOperations } from './areas/operations.ts';
import { authoringOperations } from './authoring/operations.ts';
import { guideOperations } from './guides/operations.ts';
import { placeOperations } from './places/operations.ts';
import { profileOperations } from './profile/operations.ts';
import { propertyOperations } from './properties/operations.ts';
import { publishingOperations } from './publishing/operations.ts';
import { spotOperations } from './spots/operations.ts';

/** The whole API: every resource's operations, in the order the reference lists them. */
export function createRegistry(): Registry {
  return new Registry([
    ...profileOperations,
    ...authoringOperations,
    ...guideOperations,
    ...propertyOperations,
    ...spotOperations,
    ...areaOperations,
    ...placeOperations,
    ...publishingOperations,
  ]);
}
