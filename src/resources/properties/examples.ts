import type { OperationExample } from '../../core/operation.ts';

/**
 * One realistic call per operation (the OpenAPI document and docs/reference.md show them); one
 * story: a guide to Slovenia's lakes and gorges. test/schemas/openapi.test.ts checks them against the schemas.
 */
export const propertiesExamples = {
  list_properties: {
    input: { productId: 'gd_kKif6mbydYyv_ZEZ' },
    output: { productId: 'gd_kKif6mbydYyv_ZEZ', schemaVersion: 1, properties: [], total: 0 },
  },
  create_property: {
    input: {
      productId: 'gd_kKif6mbydYyv_ZEZ',
      label: 'Best time',
      kind: 'shortLabel',
      key: 'best_time',
      required: false,
      placeholder: 'e.g. before 9:00 in summer',
    },
    output: {
      propertyDefId: 'prop_dSGpp_ZknzrIXlZ8',
      key: 'best_time',
      label: 'Best time',
      kind: 'shortLabel',
      order: 1,
      required: false,
      filterable: false,
      placeholder: 'e.g. before 9:00 in summer',
      numUnit: null,
      options: [],
      archived: false,
      schemaVersion: 2,
    },
  },
  update_property: {
    input: { propertyDefId: 'prop_dSGpp_ZknzrIXlZ8', label: 'Best time to visit', required: true },
    output: {
      propertyDefId: 'prop_dSGpp_ZknzrIXlZ8',
      key: 'best_time',
      label: 'Best time to visit',
      kind: 'shortLabel',
      order: 1,
      required: true,
      filterable: false,
      placeholder: 'e.g. before 9:00 in summer',
      numUnit: null,
      options: [],
      archived: false,
      schemaVersion: 3,
    },
  },
  archive_property: {
    input: { propertyDefId: 'prop_dSGpp_ZknzrIXlZ8', archived: false },
    output: {
      propertyDefId: 'prop_dSGpp_ZknzrIXlZ8',
      key: 'best_time',
      label: 'Best time to visit',
      kind: 'shortLabel',
      order: 1,
      required: true,
      filterable: false,
      placeholder: 'e.g. before 9:00 in summer',
      numUnit: null,
      options: [],
      archived: false,
      schemaVersion: 4,
    },
  },
  reorder_properties: {
    input: { productId: 'gd_kKif6mbydYyv_ZEZ', propertyDefIds: ['prop_dSGpp_ZknzrIXlZ8'] },
    output: {
      productId: 'gd_kKif6mbydYyv_ZEZ',
      schemaVersion: 5,
      properties: [{ propertyDefId: 'prop_dSGpp_ZknzrIXlZ8', key: 'best_time', order: 1 }],
    },
  },
  convert_property: {
    input: { propertyDefId: 'prop_dSGpp_ZknzrIXlZ8', toKind: 'longSection' },
    output: {
      ok: true,
      propertyDefId: 'prop_dSGpp_ZknzrIXlZ8',
      kind: 'longSection',
      schemaVersion: 6,
      spotsChanged: 0,
    },
  },
} satisfies Record<string, OperationExample>;
