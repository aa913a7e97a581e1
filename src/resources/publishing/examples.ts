import type { OperationExample } from '../../core/operation.ts';

/**
 * One realistic call per operation (the OpenAPI document and docs/reference.md show them); one
 * story: a guide to Slovenia's lakes and gorges. test/schemas/openapi.test.ts checks them against the schemas.
 */
export const publishingExamples = {
  list_stale_notices: {
    input: { productId: 'gd_kKif6mbydYyv_ZEZ', olderThanDays: 365 },
    output: {
      productId: 'gd_kKif6mbydYyv_ZEZ',
      today: '2026-11-23',
      count: 2,
      total: 2,
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
  get_guide_readiness: {
    input: { productId: 'gd_kKif6mbydYyv_ZEZ' },
    output: {
      productId: 'gd_kKif6mbydYyv_ZEZ',
      today: '2026-11-23',
      ready: false,
      blockingCount: 1,
      warningCount: 1,
      countsByCode: { photo_without_credit: 1, fee_expired: 1 },
      findings: [
        {
          code: 'photo_without_credit',
          severity: 'blocking',
          message:
            'This photo has no credit and buyers would see it: ask the creator who took it and set credit with update_media (never guess one), or delete the photo.',
          where: { kind: 'photo', id: 'md_Qx81bLr0T9zWkC4e', name: 'Boardwalk above the Radovna', field: 'credit' },
        },
        {
          code: 'fee_expired',
          severity: 'warning',
          message:
            'The fee "Adult day ticket" of "Vintgar Gorge" was valid until 2026-10-31: look up the current fee and send it with a new validUntil (or none) and checkedOn, with update_spot.',
          where: { kind: 'spot', id: 'sp_T5j-x6AA2bbpCfKB', name: 'Vintgar Gorge', field: 'fees[0]' },
        },
      ],
      total: 2,
    },
  },
  get_publish_status: {
    input: { productId: 'gd_kKif6mbydYyv_ZEZ' },
    output: {
      productId: 'gd_kKif6mbydYyv_ZEZ',
      live: true,
      currentRelease: { number: 3, publishedAt: 1763892000000 },
      differs: true,
      changes: [
        { kind: 'spot', added: 1, changed: 2, removed: 0 },
        { kind: 'photo', added: 4, changed: 0, removed: 1 },
      ],
      blocking: [],
      warnings: [
        {
          code: 'review_due',
          message:
            '"Vintgar Gorge" was due for review on 2026-11-01: check its facts, then set a new reviewBy with update_spot.',
        },
      ],
      blockingCount: 0,
      warningCount: 1,
      total: 1,
    },
  },
  publish_changes: {
    input: { productId: 'gd_kKif6mbydYyv_ZEZ' },
    output: {
      productId: 'gd_kKif6mbydYyv_ZEZ',
      published: true,
      release: { number: 4, publishedAt: 1763906400000 },
      changes: [
        { kind: 'spot', added: 1, changed: 2, removed: 0 },
        { kind: 'photo', added: 4, changed: 0, removed: 1 },
      ],
      message: 'Release 4 is what buyers see now.',
    },
  },
  list_releases: {
    input: { productId: 'gd_kKif6mbydYyv_ZEZ', limit: 2 },
    output: {
      productId: 'gd_kKif6mbydYyv_ZEZ',
      releases: [
        {
          release: 3,
          publishedAt: 1795600000000,
          by: { kind: 'assistant', name: 'Claude' },
          counts: { areas: 1, spots: 42, places: 6, routes: 3, chapters: 4, photos: 57, itineraries: 2 },
        },
        {
          release: 2,
          publishedAt: 1795000000000,
          by: { kind: 'key', name: 'Laptop' },
          counts: { areas: 1, spots: 40, places: 6, routes: 3, chapters: 4, photos: 51, itineraries: 1 },
        },
      ],
      total: 3,
      nextCursor: 'WyJyZWxlYXNlcyIsMl0',
    },
  },
  get_release: {
    input: { productId: 'gd_kKif6mbydYyv_ZEZ', release: 1, limit: 3 },
    output: {
      productId: 'gd_kKif6mbydYyv_ZEZ',
      release: 1,
      publishedAt: 1795000000000,
      by: { kind: 'key', name: 'Laptop' },
      counts: { areas: 1, spots: 40, places: 6, routes: 3, chapters: 4, photos: 51, itineraries: 1 },
      restorable: true,
      changes: [
        { kind: 'chapter', added: 0, changed: 1, removed: 0 },
        { kind: 'spot', added: 2, changed: 1, removed: 0 },
      ],
      records: [
        { kind: 'chapter', id: 'ch_Pq8Lm2Vx5Tb1Nw3K', name: 'Lakes', change: 'changed' },
        { kind: 'spot', id: 'sp_8wJqz1M4hVbKx0Tn', name: 'Lake Bohinj', change: 'added' },
        { kind: 'spot', id: 'sp_Lm2Tq9XvB7nCe5Ro', name: 'Savica waterfall', change: 'added' },
      ],
      total: 4,
      nextCursor: 'WyJzcG90Iiwic3BfTG0yVHE5WHZCN25DZTVSbyJd',
    },
  },
  restore_release: {
    input: { productId: 'gd_kKif6mbydYyv_ZEZ', release: 1 },
    output: {
      productId: 'gd_kKif6mbydYyv_ZEZ',
      release: 1,
      changeId: 'chg_Rt4Wm9Ks2Yp7Lb0Q',
      changes: [
        { kind: 'chapter', added: 0, changed: 1, removed: 0 },
        { kind: 'spot', added: 2, changed: 1, removed: 0 },
      ],
    },
  },
} satisfies Record<string, OperationExample>;
