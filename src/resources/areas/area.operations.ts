import { z } from 'zod';
import { refuse } from '../../core/errors.ts';
import { defineOperation, type OperationContext } from '../../core/operation.ts';
import { SINCE_2026_09_30, STABLE_SINCE } from '../../core/versions.ts';
import { answerField, answersFull } from '../../core/write-answer.ts';
import { productIdSchema } from '../../shared/id-fields.ts';
import {
  AREA_SPOT_KEYS_SHOWN,
  AREAS_PER_GUIDE,
  type Area,
  type AreaWithSpots,
  areaFieldsSchema,
  areaIdSchema,
  areaWithSpotsSchema,
  type CompactArea,
  compactAreaSchema,
} from './area.schema.ts';
import { areasExamples } from './examples.ts';

/** Areas with the keys of the spots pointing at them. */
async function withSpotKeys(ctx: OperationContext, guideId: string, areas: Area[]): Promise<AreaWithSpots[]> {
  const keys = await ctx.stores.spots.keysByArea(
    guideId,
    areas.map((a) => a.id),
  );
  return areas.map((area) => {
    const spotKeys = keys.get(area.id) ?? [];
    return { ...area, spotKeys: spotKeys.slice(0, AREA_SPOT_KEYS_SHOWN), spotCount: spotKeys.length };
  });
}

function compactArea({ id, name, spotCount }: AreaWithSpots): CompactArea {
  return { id, name, spotCount };
}

export const setArea = defineOperation({
  name: 'set_area',
  title: 'Create or replace an area',
  method: 'PUT',
  path: '/guides/{productId}/areas',
  scope: 'write',
  stability: 'beta',
  since: SINCE_2026_09_30,
  example: areasExamples.set_area,
  // Without areaId every call creates another area: not idempotent, whatever PUT suggests.
  annotations: { idempotent: false },
  description:
    'An area is a park, island or region whose rules, fees and notices apply to every spot pointing at it (areaId). ' +
    'Without areaId: creates one. With areaId: replaces it whole, and every field left out is cleared (status too). ' +
    `At most ${AREAS_PER_GUIDE} areas per guide.`,
  input: areaFieldsSchema
    .extend({
      productId: productIdSchema,
      areaId: areaIdSchema.optional().describe('Omit to create; give it to replace that area'),
      answer: answerField,
    })
    .strict(),
  output: z.object({
    productId: z.string(),
    created: z.boolean().describe('true when this call created the area'),
    area: z
      .union([areaWithSpotsSchema, compactAreaSchema])
      .nullable()
      .describe('id, name and spotCount; the area as list_areas reads it with answer full'),
  }),
  async handler({ productId, areaId, answer, ...fields }, ctx) {
    // Opening the guide for a write locks it, so concurrent set_area calls cannot both pass the cap.
    const guide = await ctx.guide(productId);
    const { areas } = ctx.stores;
    let id: string;
    if (areaId === undefined) {
      if ((await areas.count(guide.id)) >= AREAS_PER_GUIDE) {
        throw refuse(
          'areaId',
          `this guide already has ${AREAS_PER_GUIDE} areas, the most a guide can hold; replace one instead.`,
        );
      }
      id = await areas.insert(guide.id, fields);
    } else {
      await areas.requireInGuide(guide.id, areaId);
      await areas.replace(areaId, fields);
      id = areaId;
    }
    const area = (await areas.listForGuide(guide.id)).find((a) => a.id === id) ?? null;
    const [withKeys] = area ? await withSpotKeys(ctx, guide.id, [area]) : [null];
    // The area's rules, fees and sources are what was just sent, and its spot keys may be 200.
    const answered = withKeys && !answersFull({ answer }) ? compactArea(withKeys) : withKeys;
    return { productId: guide.id, created: areaId === undefined, area: answered ?? null };
  },
});

export const listAreas = defineOperation({
  name: 'list_areas',
  title: 'List areas',
  method: 'GET',
  path: '/guides/{productId}/areas',
  scope: 'read',
  stability: 'stable',
  since: STABLE_SINCE,
  example: areasExamples.list_areas,
  description: "Lists the guide's areas, oldest first, each with the keys of the spots pointing at it.",
  input: z.strictObject({ productId: productIdSchema }),
  output: z.object({ productId: z.string(), count: z.number(), areas: z.array(areaWithSpotsSchema) }),
  async handler(input, ctx) {
    const guide = await ctx.guide(input.productId);
    const areas = await withSpotKeys(ctx, guide.id, await ctx.stores.areas.listForGuide(guide.id));
    return { productId: guide.id, count: areas.length, areas };
  },
});

export const deleteArea = defineOperation({
  name: 'delete_area',
  title: 'Delete an area',
  method: 'DELETE',
  path: '/guides/{productId}/areas/{areaId}',
  scope: 'write',
  stability: 'stable',
  since: STABLE_SINCE,
  example: areasExamples.delete_area,
  description:
    'Deletes an area for good; confirm with the creator first. Spots that pointed at it lose their areaId and nothing else.',
  input: z.strictObject({ productId: productIdSchema, areaId: areaIdSchema }),
  output: z.object({ ok: z.literal(true), productId: z.string(), areaId: z.string(), deleted: z.literal(true) }),
  async handler(input, ctx) {
    const guide = await ctx.guide(input.productId);
    const { areas } = ctx.stores;
    await areas.requireInGuide(guide.id, input.areaId);
    await ctx.deleteReferencesTo('area', { guideId: guide.id, areaId: input.areaId });
    await areas.delete(input.areaId);
    return { ok: true as const, productId: guide.id, areaId: input.areaId, deleted: true as const };
  },
});

export const areaOperations = [listAreas, setArea, deleteArea];
