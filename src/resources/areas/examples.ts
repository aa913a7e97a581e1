import type { OperationExample } from '../../core/operation.ts';

/**
 * One realistic call per operation (the OpenAPI document and docs/reference.md show them); one
 * story: a guide to Slovenia's lakes and gorges. test/schemas/openapi.test.ts checks them against the schemas.
 */
export const areasExamples = {
  list_areas: {
    input: { productId: 'gd_kKif6mbydYyv_ZEZ' },
    output: { productId: 'gd_kKif6mbydYyv_ZEZ', count: 0, areas: [] },
  },
  set_area: {
    input: {
      productId: 'gd_kKif6mbydYyv_ZEZ',
      name: 'Triglav National Park',
      kind: 'park',
      note: 'Stay on marked trails; no drones.',
      season: 'Huts open mid-June to late September',
      rules: [
        {
          text: 'Vehicles need a permit to drive up to Vogel',
          kind: 'vehicle',
          months: [6, 7, 8, 9],
          appliesTo: 'car',
          bookingOpens: 'in May',
          sourceUrl: 'https://www.tnp.si/en/rules',
        },
      ],
      fees: [{ label: 'Parking at Pokljuka', amount: 10, currency: 'EUR', per: 'day' }],
      links: [{ kind: 'authority', url: 'https://www.tnp.si/en' }],
      sources: [{ url: 'https://www.tnp.si/en/rules', kind: 'page', capturedOn: '2026-11-02' }],
      status: { state: 'open' },
    },
    output: {
      productId: 'gd_kKif6mbydYyv_ZEZ',
      created: true,
      area: { id: 'ar_IYnmRnu-Q03eFSO_', name: 'Triglav National Park', spotCount: 0 },
    },
  },
  delete_area: {
    input: { productId: 'gd_kKif6mbydYyv_ZEZ', areaId: 'ar_IYnmRnu-Q03eFSO_' },
    output: { ok: true, productId: 'gd_kKif6mbydYyv_ZEZ', areaId: 'ar_IYnmRnu-Q03eFSO_', deleted: true },
  },
} satisfies Record<string, OperationExample>;
