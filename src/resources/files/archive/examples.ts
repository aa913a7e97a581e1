import type { OperationExample } from '../../../core/operation.ts';

/** One realistic call of each archive operation, checked against its schemas by test/schemas. */
export const archiveExamples = {
  import_guide: {
    input: {},
    output: {
      productId: 'gd_Qm3vX9dR2LkTp0aZ',
      name: 'Julian Alps: Gorges and Lakes',
      slug: 'julian-alps-gorges-and-lakes',
      counts: {
        areas: 2,
        properties: 1,
        spots: 24,
        places: 3,
        routes: 2,
        chapters: 3,
        photos: 18,
        storedImages: 2,
        itineraries: 1,
        files: 80,
      },
    },
  },
} satisfies Record<string, OperationExample>;
