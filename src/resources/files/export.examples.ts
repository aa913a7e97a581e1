import type { OperationExample } from '../../core/operation.ts';

export const exportExamples = {
  export_guide: {
    input: { productId: 'gd_kKif6mbydYyv_ZEZ', format: 'gpx' },
    output: {
      productId: 'gd_kKif6mbydYyv_ZEZ',
      format: 'gpx',
      from: 'working',
      url: 'https://creators.example.com/downloads/3q2-7wAAAAC2Xj8pM1yQeU0RZ2hN4vOa8mBfTtK9cLsWdEgHrJxYqPzUo',
      fileName: 'lakes-of-slovenia-working.gpx',
      byteSize: 48213,
      counts: { spots: 42, areas: 0, routes: 2, hikes: 3 },
      leftOut: ['1 spot without a position (a waypoint needs one)'],
      expiresAt: 1795431600000,
    },
  },
} satisfies Record<string, OperationExample>;
