import type { Resource } from '../../core/resource.ts';
import type { Creator } from './creator.store.ts';
import { CreatorsStore } from './creator.store.ts';
import { profileOperations } from './profile.operations.ts';

declare module '../../core/stores.ts' {
  interface Stores {
    creators: CreatorsStore;
  }
}

declare module '../../core/guide-contents.ts' {
  interface GuideParts {
    /** The guide's creator as their profile stands now (agreement, public name). */
    creator: Creator;
  }
}

export const profileResource: Resource = {
  tag: { name: 'profile', description: 'The creator behind the key: who calls, their public profile and social links' },
  operations: profileOperations,
  stores: { creators: (s) => new CreatorsStore(s) },
  guideParts: { creator: (stores, guide) => stores.creators.require(guide.creatorId) },
};

export { type Creator, CreatorsStore } from './creator.store.ts';
