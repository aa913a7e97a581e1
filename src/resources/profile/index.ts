import type { Resource } from '../../core/resource.ts';
import { CreatorsStore } from './creators.store.ts';
import { profileOperations } from './operations.ts';

declare module '../../core/stores.ts' {
  interface Stores {
    creators: CreatorsStore;
  }
}

export const profileResource: Resource = {
  tag: { name: 'profile', description: 'The creator behind the key: who calls, their public profile and social links' },
  operations: profileOperations,
  stores: { creators: (s) => new CreatorsStore(s) },
};

export { type Creator, CreatorsStore } from './creators.store.ts';
