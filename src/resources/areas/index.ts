import type { Resource } from '../../core/resource.ts';
import { areaOperations } from './area.operations.ts';
import type { Area } from './area.schema.ts';
import { AreasStore } from './area.store.ts';
import type { AreasTable } from './area.tables.ts';

declare module '../../core/stores.ts' {
  interface Stores {
    areas: AreasStore;
  }
}

declare module '../../core/references.ts' {
  interface ReferenceTargets {
    area: { guideId: string; areaId: string };
  }
}

declare module '../../db/tables.ts' {
  interface Database {
    areas: AreasTable;
  }
}

declare module '../../core/guide-contents.ts' {
  interface GuideParts {
    /** The guide's areas, in its order. */
    areas: Area[];
  }
}

export const areasResource: Resource = {
  tag: {
    name: 'areas',
    description: 'Areas (parks, islands, regions) whose rules, fees and notices apply to their spots',
  },
  operations: areaOperations,
  history: {
    areas: {
      kind: 'area',
      beforeRemoving: (row, ctx) =>
        ctx.deleteReferencesTo('area', { guideId: String(row.guide_id), areaId: String(row.id) }),
    },
  },
  stores: { areas: (s) => new AreasStore(s) },
  usesStores: ['spots'],
  guideParts: { areas: (stores, guide) => stores.areas.listForGuide(guide.id) },
};

export { AREAS_PER_GUIDE, type Area, areaSchema } from './area.schema.ts';
export { areasFromJson, areasOfGuide } from './area.store.ts';
