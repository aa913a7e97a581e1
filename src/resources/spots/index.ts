import type { Resource } from '../../core/resource.ts';
import { spotOperations } from './spot.operations.ts';
import type { OwnedSpot } from './spot.store.ts';
import { SpotsStore } from './spot.store.ts';
import type { SpotsTable } from './spot.tables.ts';

declare module '../../core/stores.ts' {
  interface Stores {
    spots: SpotsStore;
  }
}

declare module '../../core/references.ts' {
  interface ReferenceTargets {
    /** A spot about to be deleted; holders name it by id or by key. */
    spot: { guideId: string; spotId: string; spotKey: string };
  }
}

declare module '../../db/tables.ts' {
  interface Database {
    spots: SpotsTable;
  }
}

declare module '../../core/guide-contents.ts' {
  interface GuideParts {
    /** Every spot of the guide, archived ones included (what names them still counts), in its order. */
    spots: OwnedSpot[];
  }
}

export const spotsResource: Resource = {
  tag: { name: 'spots', description: 'Spots: the places a guide describes' },
  operations: spotOperations,
  history: {
    spots: {
      kind: 'spot',
      spliced: ['description'],
      beforeRemoving: (row, ctx) =>
        ctx.deleteReferencesTo('spot', {
          guideId: String(row.guide_id),
          spotId: String(row.id),
          spotKey: String(row.spot_key),
        }),
    },
  },
  stores: { spots: (s) => new SpotsStore(s) },
  usesStores: ['areas', 'chapters', 'guides', 'properties'],
  references: [
    // A spot keeps everything but the pointer to a deleted area.
    { to: 'area', onDelete: (area, ctx) => ctx.stores.spots.clearArea(area.areaId) },
  ],
  guideParts: { spots: (stores, guide) => stores.spots.list(guide.id, { includeArchived: true }) },
};
export {
  applySpotWrites,
  planSpotWrites,
  type SpotWriteItem,
  type SpotWritePlan,
} from './spot.batch.ts';
export { spotFieldsSchema, spotKeySchema, spotSchema } from './spot.schema.ts';
export { spotCountOfGuide } from './spot.store.ts';
