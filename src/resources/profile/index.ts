import type { Resource } from '../../core/resource.ts';
import { CreatorsStore } from './creator.store.ts';
import { profileOperations } from './profile.operations.ts';

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

export { type Creator, CreatorsStore } from './creator.store.ts';
