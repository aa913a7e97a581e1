import type { AnyOperation } from './operation.ts';
import type { StoreFactories } from './stores.ts';

/** What a resource folder offers the registry: its operations and the stores handlers reach. */
export interface Resource {
  operations: readonly AnyOperation[];
  stores?: Partial<StoreFactories>;
}
