import type { OperationExample } from '../../core/operation.ts';

/**
 * One realistic call per operation (the OpenAPI document and docs/reference.md show them); one
 * story: a guide to Slovenia's lakes and gorges. test/schemas/openapi.test.ts checks them against the schemas.
 */
export const publishingExamples: Record<string, OperationExample> = {
  list_stale_notices: {
    input: { productId: 'gd_kKif6mbydYyv_ZEZ', olderThanDays: 365 },
    output: {
      productId: 'gd_kKif6mbydYyv_ZEZ',
      today: '2026-11-23',
      count: 2,
      notices: [
        {
          kind: 'spot',
          id: 'sp_T5j-x6AA2bbpCfKB',
          name: 'Vintgar Gorge',
          field: 'fees[0]',
          reason: 'ended',
          date: '2026-10-31',
          detail: 'The fee "Adult day ticket" was valid until 2026-10-31: look up the current amount.',
        },
        {
          kind: 'spot',
          id: 'sp_T5j-x6AA2bbpCfKB',
          name: 'Vintgar Gorge',
          field: 'schedule',
          reason: 'ended',
          date: '2026-10-31',
          detail: 'The opening hours were valid until 2026-10-31: look up the current hours.',
        },
      ],
    },
  },
};
