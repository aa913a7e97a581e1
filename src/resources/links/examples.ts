import type { OperationExample } from '../../core/operation.ts';

const productId = 'gd_kKif6mbydYyv_ZEZ';
const gorge = { kind: 'spot', id: 'sp_T5j-x6AA2bbpCfKB', name: 'Vintgar Gorge' } as const;

/**
 * One realistic call per operation (the OpenAPI document and docs/reference.md show them), recorded
 * from a run: a spot with an official page and a ticket shop. test/schemas/* checks them.
 */
export const linksExamples = {
  get_link_report: {
    input: { productId },
    output: {
      productId,
      counts: { ok: 0, redirected: 0, broken: 0, blocked: 0, error: 0, unchecked: 2 },
      count: 2,
      total: 2,
      links: [
        {
          url: 'https://www.vintgar.si/en',
          uses: [
            { ...gorge, field: 'links[0].url' },
            { ...gorge, field: 'fees[0].sourceUrl' },
          ],
          lastCheck: null,
          verified: false,
          verifiedAt: null,
        },
        {
          url: 'https://www.vintgar.si/en/tickets',
          uses: [{ ...gorge, field: 'links[1].url' }],
          lastCheck: null,
          verified: false,
          verifiedAt: null,
        },
      ],
    },
  },
  check_links: {
    input: { productId, urls: ['https://www.vintgar.si/en/tickets'] },
    output: {
      productId,
      checked: 1,
      counts: { ok: 0, redirected: 0, broken: 1, blocked: 0, error: 0 },
      problems: [
        {
          url: 'https://www.vintgar.si/en/tickets',
          status: 'broken',
          httpStatus: null,
          finalUrl: 'https://www.vintgar.si/en/tickets',
          error: 'The name www.vintgar.si does not exist.',
          uses: [{ ...gorge, field: 'links[1].url' }],
        },
      ],
      notChecked: 0,
    },
  },
  set_link_verified: {
    input: { productId, urls: ['https://www.vintgar.si/en', 'https://www.vintgar.si/en/tickets'], verified: true },
    output: {
      ok: true,
      productId,
      marked: 2,
      verified: true,
      verifiedAt: 1795165200000,
    },
  },
} satisfies Record<string, OperationExample>;
