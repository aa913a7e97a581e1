import type { OperationExample } from '../../core/operation.ts';

/**
 * One realistic call per operation (the OpenAPI document and docs/reference.md show them); one
 * story: a guide to Slovenia's lakes and gorges. test/schemas/openapi.test.ts checks them against the schemas.
 */
export const authoringExamples = {
  get_authoring_guide: {
    input: { topic: 'places' },
    output: {
      version: '2026-09-30.4',
      apiVersion: '2026-09-30.2',
      topic: 'places',
      topics: [
        'guide',
        'properties',
        'areas',
        'spots',
        'places',
        'routes',
        'itineraries',
        'chapters',
        'photos',
        'sales_page',
        'publishing',
        'links',
        'limits',
        'errors',
        'editing',
      ],
      markdown:
        '# Authoring playbook for travel guides: places\n\nAuthoring playbook · version 2026-09-30.4 · API 2026-09-30.2 · topic `places`\n\n### 6. Places (stays, transport, tours, food, parking)\n\n- `create_facility` needs `kind` and `name`. The kinds are `hut` (a stay), `cable_car` (transport), `activity` (tours), `food` and `parking`. Pick a `type` from that kind…',
    },
  },
} satisfies Record<string, OperationExample>;
