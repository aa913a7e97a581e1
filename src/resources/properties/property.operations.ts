import { z } from 'zod';
import { refuse } from '../../core/errors.ts';
import { pageFields } from '../../core/guide-pages.ts';
import { openOwned } from '../../core/guide-records.ts';
import { defineOperation } from '../../core/operation.ts';
import { pageInputShape, pageOfList, pageOutputShape } from '../../core/paging.ts';
import { SINCE_2026_09_30, STABLE_SINCE } from '../../core/versions.ts';
import { answerField, answersFull } from '../../core/write-answer.ts';
import { productIdSchema } from '../../shared/id-fields.ts';
import { candidateStem, clearable, firstFree, text } from '../../shared/text.ts';
import { planConversion } from './conversion.ts';
import { propertiesExamples } from './examples.ts';
import { checkKindSettings, KEY_MAX, keyFromLabel, nextOptions } from './property.rules.ts';
import {
  optionKinds,
  optionsInputSchema,
  propertyDefIdSchema,
  propertyKeySchema,
  propertyKinds,
  propertyPlaceSchema,
  propertySchema,
} from './property.schema.ts';
import { publicProperty } from './property.store.ts';

const labelSchema = text(80).min(1).describe('What buyers read, at most 80');
const placeholderSchema = text(120).describe('Hint shown in an empty field, at most 120; "" clears');
const numUnitSchema = text(20).describe('Unit of a number property (e.g. "m", "min"), at most 20; "" clears');

/** Properties a page holds: a property with its options is under 1 KB. */
const PROPERTY_PAGE = { default: 100, max: 500 };

export const listProperties = defineOperation({
  name: 'list_properties',
  title: 'List custom spot properties',
  method: 'GET',
  path: '/guides/{productId}/properties',
  scope: 'read',
  stability: 'stable',
  since: STABLE_SINCE,
  example: propertiesExamples.list_properties,
  description:
    "Lists the guide's custom spot properties in order, archived ones included, with the schema version, a page at " +
    'a time (see Paging).',
  input: z.strictObject({ productId: productIdSchema, ...pageInputShape(PROPERTY_PAGE) }),
  output: z.object({
    productId: z.string(),
    schemaVersion: z.number().nullable(),
    properties: z.array(propertySchema),
    ...pageOutputShape,
  }),
  async handler(input, ctx) {
    const guide = await ctx.guide(input.productId);
    const { properties } = ctx.stores;
    const all = (await properties.listForGuide(guide.id)).map(publicProperty);
    const page = pageOfList(all, input, PROPERTY_PAGE);
    return {
      productId: guide.id,
      schemaVersion: await ctx.stores.guides.propertySchemaVersion(guide.id),
      properties: page.items,
      ...pageFields(page),
    };
  },
});

export const createProperty = defineOperation({
  name: 'create_property',
  title: 'Create a custom spot property',
  method: 'POST',
  path: '/guides/{productId}/properties',
  scope: 'write',
  stability: 'stable',
  since: STABLE_SINCE,
  example: propertiesExamples.create_property,
  location: (_property, input) => `/guides/${input.productId}/properties`,
  successStatus: 201,
  description:
    'Defines a custom property every spot of the guide can carry (in customValues, by key). The key and option ids ' +
    'never change; the kind changes only through convert_property.',
  input: z.strictObject({
    productId: productIdSchema,
    label: labelSchema,
    kind: z.enum(propertyKinds).describe('checkbox holds several options, singleSelect one'),
    key: propertyKeySchema.optional(),
    required: z.boolean().optional().describe('Readiness flags spots without a value'),
    filterable: z.boolean().optional().describe('Buyers can filter (number, date, checkbox, singleSelect)'),
    placeholder: placeholderSchema.optional(),
    numUnit: numUnitSchema.optional(),
    options: optionsInputSchema.optional(),
  }),
  output: propertySchema,
  async handler(input, ctx) {
    const guide = await ctx.guide(input.productId);
    const { properties } = ctx.stores;
    checkKindSettings(input.kind, input);
    let key: string;
    if (input.key !== undefined) {
      if (await properties.keyTaken(guide.id, input.key)) {
        throw refuse('key', `another property of this guide (archived ones included) has the key "${input.key}".`);
      }
      key = input.key;
    } else {
      const base = keyFromLabel(input.label);
      key = firstFree(base, await properties.keysLike(guide.id, candidateStem(base, KEY_MAX)), KEY_MAX, '_');
    }
    const version = await ctx.stores.guides.bumpPropertySchemaVersion(guide.id);
    const id = await properties.create(
      guide.id,
      {
        key,
        label: input.label,
        kind: input.kind,
        required: input.required ?? false,
        filterable: input.filterable ?? false,
        placeholder: clearable(input.placeholder) ?? null,
        numUnit: clearable(input.numUnit) ?? null,
        options: optionKinds.has(input.kind) ? nextOptions([], input.options ?? []) : [],
      },
      version,
    );
    return publicProperty(await properties.require(id));
  },
});

export const updateProperty = defineOperation({
  name: 'update_property',
  title: 'Update a custom spot property',
  method: 'PATCH',
  path: '/properties/{propertyDefId}',
  scope: 'write',
  stability: 'stable',
  since: STABLE_SINCE,
  example: propertiesExamples.update_property,
  description:
    'Changes only the fields sent. options is the full list of live options in order: keep one by its id, add one ' +
    'without an id; options left out are archived (spots keep their values). key and kind cannot change here.',
  input: z.strictObject({
    propertyDefId: propertyDefIdSchema,
    label: labelSchema.optional(),
    required: z.boolean().optional(),
    filterable: z.boolean().optional(),
    placeholder: placeholderSchema.nullable().optional(),
    numUnit: numUnitSchema.nullable().optional(),
    options: optionsInputSchema.optional(),
    key: z.string().optional().describe('Immutable: may be sent only unchanged'),
    kind: z.string().optional().describe('Changes only through convert_property; may be sent only unchanged'),
  }),
  output: propertySchema,
  async handler(input, ctx) {
    const { properties } = ctx.stores;
    const property = await openOwned(ctx, properties, input.propertyDefId);
    if (input.key !== undefined && input.key !== property.key) {
      throw refuse(
        'key',
        `is immutable: spots store values under "${property.key}". Create a new property for a new key.`,
      );
    }
    if (input.kind !== undefined && input.kind !== property.kind) {
      throw refuse('kind', 'changes only through convert_property (or a new property and archive_property).');
    }
    checkKindSettings(property.kind, { filterable: input.filterable, numUnit: input.numUnit, options: input.options });
    const version = await ctx.stores.guides.bumpPropertySchemaVersion(property.guideId);
    await properties.update(
      property.propertyDefId,
      {
        label: input.label,
        required: input.required,
        filterable: input.filterable,
        placeholder: clearable(input.placeholder),
        numUnit: clearable(input.numUnit),
        options: input.options === undefined ? undefined : nextOptions(property.options, input.options),
      },
      version,
    );
    return publicProperty(await properties.require(property.propertyDefId));
  },
});

export const archiveProperty = defineOperation({
  name: 'archive_property',
  title: 'Archive a custom spot property',
  method: 'POST',
  path: '/properties/{propertyDefId}/archive',
  scope: 'write',
  stability: 'stable',
  since: STABLE_SINCE,
  example: propertiesExamples.archive_property,
  description:
    'Hides a property from buyers and editing; spots keep their stored values. archived false brings it back.',
  input: z.strictObject({
    propertyDefId: propertyDefIdSchema,
    archived: z.boolean().optional().describe('false unarchives; default true'),
  }),
  output: propertySchema,
  async handler(input, ctx) {
    const { properties } = ctx.stores;
    const property = await openOwned(ctx, properties, input.propertyDefId);
    const version = await ctx.stores.guides.bumpPropertySchemaVersion(property.guideId);
    await properties.update(property.propertyDefId, { archived: input.archived ?? true }, version);
    return publicProperty(await properties.require(property.propertyDefId));
  },
});

export const reorderProperties = defineOperation({
  name: 'reorder_properties',
  title: 'Reorder custom spot properties',
  method: 'PUT',
  path: '/guides/{productId}/properties/order',
  scope: 'write',
  stability: 'stable',
  since: STABLE_SINCE,
  example: propertiesExamples.reorder_properties,
  description:
    'Sets the order of the properties: list every live property once, in the order wanted; archived ones may be ' +
    'listed too, and those left out follow at the end.',
  input: z.strictObject({
    productId: productIdSchema,
    propertyDefIds: z.array(propertyDefIdSchema).max(500).describe('Property ids in the order wanted'),
    answer: answerField,
  }),
  output: z.object({
    productId: z.string(),
    schemaVersion: z.number(),
    properties: z
      .array(z.union([propertySchema, propertyPlaceSchema]))
      .describe('In their new order: propertyDefId, key and order, or the properties whole with answer full'),
  }),
  async handler(input, ctx) {
    const guide = await ctx.guide(input.productId);
    const { properties } = ctx.stores;
    const all = await properties.listForGuide(guide.id);
    const byId = new Map(all.map((p) => [p.propertyDefId, p]));
    const seen = new Set<string>();
    input.propertyDefIds.forEach((id, i) => {
      if (!byId.has(id)) throw refuse(`propertyDefIds[${i}]`, `"${id}" is not a property of this guide.`);
      if (seen.has(id)) throw refuse(`propertyDefIds[${i}]`, `"${id}" is listed twice.`);
      seen.add(id);
    });
    const missing = all.filter((p) => !p.archived && !seen.has(p.propertyDefId));
    if (missing.length > 0) {
      throw refuse(
        'propertyDefIds',
        `must list every live property; missing: ${missing.map((p) => `${p.propertyDefId} (${p.key})`).join(', ')}.`,
      );
    }
    const ordered = [
      ...input.propertyDefIds,
      ...all.filter((p) => !seen.has(p.propertyDefId)).map((p) => p.propertyDefId),
    ];
    const version = await ctx.stores.guides.bumpPropertySchemaVersion(guide.id);
    for (const [i, id] of ordered.entries()) await properties.update(id, { order: i + 1 }, version);
    const after = (await properties.listForGuide(guide.id)).map(publicProperty);
    const answered = answersFull(input)
      ? after
      : after.map(({ propertyDefId, key, order }) => ({ propertyDefId, key, order }));
    return { productId: guide.id, schemaVersion: version, properties: answered };
  },
});

export const convertProperty = defineOperation({
  name: 'convert_property',
  title: 'Convert a custom property to another kind',
  method: 'POST',
  path: '/properties/{propertyDefId}/convert',
  scope: 'write',
  stability: 'beta',
  since: SINCE_2026_09_30,
  example: propertiesExamples.convert_property,
  description:
    "Changes a property's kind along the conversion table only: singleSelect→checkbox (values become one-item lists), " +
    'checkbox→singleSelect (refused while a spot holds more than one option), shortLabel→longSection, and ' +
    'longSection→shortLabel (only when every value fits one line). Refusals name the spots in the way.',
  input: z.strictObject({
    propertyDefId: propertyDefIdSchema,
    toKind: z.enum(propertyKinds).describe('The kind wanted'),
  }),
  output: z.object({
    ok: z.literal(true),
    propertyDefId: z.string(),
    kind: z.enum(propertyKinds),
    schemaVersion: z.number(),
    spotsChanged: z.number().describe('Spots whose stored value changed shape'),
  }),
  async handler(input, ctx) {
    const { properties, spots } = ctx.stores;
    const property = await openOwned(ctx, properties, input.propertyDefId);
    const holding = await spots.withCustomValue(property.guideId, property.key);
    const plan = planConversion(property.kind, input.toKind, property.key, holding);
    for (const change of plan.changes) await spots.setCustomValues(change.spotId, change.customValues);
    const version = await ctx.stores.guides.bumpPropertySchemaVersion(property.guideId);
    await properties.update(property.propertyDefId, { kind: input.toKind }, version);
    return {
      ok: true as const,
      propertyDefId: property.propertyDefId,
      kind: input.toKind,
      schemaVersion: version,
      spotsChanged: plan.changes.length,
    };
  },
});

export const propertyOperations = [
  listProperties,
  createProperty,
  updateProperty,
  archiveProperty,
  reorderProperties,
  convertProperty,
];
