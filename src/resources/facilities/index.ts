import type { Resource } from '../../core/resource.ts';
import { facilityOperations } from './facility.operations.ts';
import type { OwnedPlace } from './facility.store.ts';
import { FacilitiesStore } from './facility.store.ts';
import type { FacilitiesTable, FacilitySpotsTable } from './facility.tables.ts';

declare module '../../core/stores.ts' {
  interface Stores {
    facilities: FacilitiesStore;
  }
}

declare module '../../core/references.ts' {
  interface ReferenceTargets {
    /** A place about to be deleted; its name outlives it where a holder keeps it in words. */
    facility: { guideId: string; facilityId: string; name: string };
  }
}

declare module '../../db/tables.ts' {
  interface Database {
    facilities: FacilitiesTable;
    facility_spots: FacilitySpotsTable;
  }
}

declare module '../../core/guide-contents.ts' {
  interface GuideParts {
    /** The guide's places (the facilities table's rows). */
    places: OwnedPlace[];
  }
}

export const facilitiesResource: Resource = {
  tag: { name: 'facilities', description: 'Places that serve spots: huts, cable cars, activities, food, parking' },
  operations: facilityOperations,
  history: {
    facilities: {
      kind: 'facility',
      beforeRemoving: (row, ctx) =>
        ctx.deleteReferencesTo('facility', {
          guideId: String(row.guide_id),
          facilityId: String(row.id),
          name: String(row.name),
        }),
    },
    facility_spots: { kind: 'facility', idColumn: 'facility_id', part: true },
  },
  stores: { facilities: (s) => new FacilitiesStore(s) },
  usesStores: ['spots'],
  guideParts: { places: (stores, guide) => stores.facilities.listForGuide(guide.id) },
};
export { placeSchema } from './facility.schema.ts';
