import type { OperationExample } from '../../core/operation.ts';

/**
 * One realistic call per operation (the OpenAPI document and docs/reference.md show them); one
 * story: a guide to Slovenia's lakes and gorges. test/schemas/openapi.test.ts checks them against the schemas.
 */
export const authoringExamples: Record<string, OperationExample> = {
  get_authoring_guide: {
    input: {},
    output: {
      version: '2026-09-30.3',
      apiVersion: '2026-09-30.2',
      markdown:
        '# Authoring playbook for travel guides\n\nAuthoring playbook · version 2026-09-30.3 · API 2026-09-30.2\n\nYou are an assistant building and editing travel guides for one creator through the Creator API. T…',
    },
  },
};
