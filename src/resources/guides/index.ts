import type { Resource } from '../../core/resource.ts';
import { clearGuideThumbnail } from '../media/index.ts';
import { guideOperations } from './guide.operations.ts';
import type { Guide } from './guide.schema.ts';
import { GuidesStore } from './guide.store.ts';
import { guideRecord } from './guide-records.ts';
import { GuideViewCache } from './guide-views.ts';

declare module '../../core/stores.ts' {
  interface Stores {
    guides: GuidesStore;
  }
}

declare module '../../core/caches.ts' {
  interface Caches {
    /** Read views of guides at their revision (guide-views.ts). */
    guideViews: GuideViewCache;
  }
}

declare module '../../core/guide-contents.ts' {
  interface GuideParts {
    /** The guide's record, its own addresses as paths: what a release keeps must not move with the service. */
    guide: Guide;
  }
}

/** URLs kept as paths: a release must not change when the service moves to another address. */
const PATHS_ONLY = { publicUrl: '', studioUrl: '' };

export const guidesResource: Resource = {
  tag: { name: 'guides', description: 'Guides (products of type map): create, shape, region and price' },
  operations: guideOperations,
  // The guide's own fields are history; its stamps and sale state (the studio's, the publisher's) are not.
  history: {
    guides: {
      kind: 'guide',
      unrecorded: [
        'updated_at',
        'last_api_write_at',
        'revision',
        'status',
        'published_at',
        'visible_on_store',
        'store_review_status',
        'store_review_note',
      ],
    },
    guide_prices: { kind: 'guide', idColumn: 'guide_id', part: true },
    purchases: 'untracked',
  },
  stores: { guides: (s, { caches }) => new GuidesStore(s, caches.guideViews) },
  caches: () => ({ guideViews: new GuideViewCache() }),
  usesStores: ['creators'],
  references: [
    // The store thumbnail is cut from one of the guide's photos; it goes with that photo.
    { to: 'photo', onDelete: (photo, ctx) => clearGuideThumbnail(ctx, photo.guideId, photo.mediaId) },
  ],
  guideParts: { guide: (stores, guide) => guideRecord(stores, guide.id, PATHS_ONLY) },
};

export type { Guide, MapRegion } from './guide.schema.ts';
export { guideAccess } from './guide-access.ts';
export { guideRecord, recordOf } from './guide-records.ts';
export { updateGuideRow } from './guide-row.ts';
