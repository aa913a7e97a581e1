import type { Resource } from '../../core/resource.ts';
import { CreatorsStore } from './creators.store.ts';
import { profileOperations } from './operations.ts';

declare module '../../core/stores.ts' {
  interface Stores {
    creators: CreatorsStore;
  }
}

export const profileResource: Resource = {
  operations: profileOperations,
  stores: { creators: (s) => new CreatorsStore(s) },
};

export { type Creator, CreatorsStore } from './creators.store.ts';
