import { z } from 'zod';
import { type GuideList, guidePage, pageFields } from '../../core/guide-pages.ts';
import { openOwned } from '../../core/guide-records.ts';
import { defineOperation } from '../../core/operation.ts';
import { nameContainsField, pageInputShape, pageOutputShape, viewField } from '../../core/paging.ts';
import { requireFresh } from '../../core/stale-editor.ts';
import { answerField, answersFull } from '../../core/write-answer.ts';
import { productIdSchema } from '../../shared/id-fields.ts';
import { itinerariesExamples as examples } from './examples.ts';
import {
  type CompactItinerary,
  compactItinerarySchema,
  daysSchema,
  expectedUpdatedAtSchema,
  type Itinerary,
  itineraryEdits,
  itineraryFieldsSchema,
  itineraryIdSchema,
  itinerarySchema,
} from './itinerary.schema.ts';
import { type OwnedItinerary, publicItinerary } from './itinerary.store.ts';
import { applyItineraryFields, checkedDays, emptyItinerary } from './itinerary-rules.ts';

/** Itineraries came with this revision; the undated ones (list, create, set days) with them. */
const ITINERARIES_SINCE = '2026-10-06.3';
const common = { stability: 'beta', since: ITINERARIES_SINCE } as const;

/** Itineraries a page holds: one of 14 days of 10 stops is about 8 KB. */
const ITINERARY_PAGE = { default: 10, max: 100 };

export const listItineraries = defineOperation({
  ...common,
  name: 'list_itineraries',
  title: 'List itineraries',
  method: 'GET',
  path: '/guides/{productId}/itineraries',
  scope: 'read',
  example: examples.list_itineraries,
  description:
    "Lists the guide's itineraries in order with their days, archived ones included (archived: true), a page at a " +
    'time (see Paging). view compact holds itineraryId, name, order, archived, updatedAt, dayCount.',
  input: z.strictObject({
    productId: productIdSchema,
    nameContains: nameContainsField,
    view: viewField,
    ...pageInputShape(ITINERARY_PAGE),
  }),
  output: z.object({
    productId: z.string(),
    count: z.number().describe('Itineraries in this answer'),
    itineraries: z.array(z.union([itinerarySchema, compactItinerarySchema])),
    ...pageOutputShape,
  }),
  async handler(input, ctx) {
    const { itineraries } = ctx.stores;
    const view = input.view ?? 'full';
    const list: GuideList<OwnedItinerary, Itinerary | CompactItinerary> = {
      scope: `itineraries name=${input.nameContains ?? '*'}`,
      variant: view,
      size: ITINERARY_PAGE,
      read: (guideId, request) => itineraries.page(guideId, input.nameContains, request),
      count: (guideId) => itineraries.count(guideId, input.nameContains),
      sortKey: (row) => [row.order, row.createdAt, row.id],
      present: (row) => (view === 'compact' ? compactItinerary(row) : publicItinerary(row)),
    };
    return guidePage(ctx.stores, ctx.principal.creatorId, input.productId, list, input, (guideId, page) => ({
      productId: guideId,
      count: page.items.length,
      itineraries: page.items,
      ...pageFields(page),
    }));
  },
});

function compactItinerary({ id, name, order, archived, updatedAt, days }: OwnedItinerary): CompactItinerary {
  return { itineraryId: id, name, order, archived, updatedAt, dayCount: days.length };
}

export const createItinerary = defineOperation({
  ...common,
  name: 'create_itinerary',
  title: 'Create an itinerary',
  method: 'POST',
  path: '/guides/{productId}/itineraries',
  scope: 'write',
  successStatus: 201,
  example: examples.create_itinerary,
  location: (out) => `/itineraries/${out.itineraryId}`,
  description: 'Adds a day-by-day trip at the end of the guide, with no days yet: fill them with set_itinerary_days.',
  input: itineraryFieldsSchema
    .partial()
    .extend({ productId: productIdSchema, name: itineraryFieldsSchema.shape.name })
    .strict(),
  output: itinerarySchema,
  async handler({ productId, ...fields }, ctx) {
    const guide = await ctx.guide(productId);
    const state = await applyItineraryFields(ctx, guide.id, emptyItinerary(fields.name), fields);
    const { itineraries } = ctx.stores;
    return publicItinerary(await itineraries.require(await itineraries.insert(guide.id, state)));
  },
});

export const getItinerary = defineOperation({
  ...common,
  name: 'get_itinerary',
  title: 'Read an itinerary',
  method: 'GET',
  path: '/itineraries/{itineraryId}',
  scope: 'read',
  example: examples.get_itinerary,
  description: 'Reads one itinerary with its days as stored (archived ones too); keep updatedAt for your next edit.',
  input: z.strictObject({ itineraryId: itineraryIdSchema }),
  output: itinerarySchema,
  async handler(input, ctx) {
    return publicItinerary(await openOwned(ctx, ctx.stores.itineraries, input.itineraryId));
  },
});

export const updateItinerary = defineOperation({
  ...common,
  name: 'update_itinerary',
  title: 'Update an itinerary',
  method: 'PATCH',
  path: '/itineraries/{itineraryId}',
  scope: 'write',
  errors: ['stale_editor'],
  example: examples.update_itinerary,
  description:
    'Changes only the fields sent: "" clears text, null clears coverMediaId, travelMode and season. ' +
    'archived true hides it from buyers and keeps it editable. Days change only with set_itinerary_days. ' +
    'Send expectedUpdatedAt from your last read; on stale_editor read again and merge, never overwrite.',
  input: itineraryFieldsSchema
    .partial()
    .extend({
      itineraryId: itineraryIdSchema,
      archived: z.boolean().optional().describe('true hides it from buyers; false shows it at the next publish'),
      expectedUpdatedAt: expectedUpdatedAtSchema.optional(),
    })
    .strict(),
  output: itinerarySchema,
  async handler({ itineraryId, expectedUpdatedAt, ...fields }, ctx) {
    const itinerary = await openOwned(ctx, ctx.stores.itineraries, itineraryId);
    requireFresh(itineraryEdits, itinerary.updatedAt, expectedUpdatedAt);
    const state = await applyItineraryFields(ctx, itinerary.guideId, itinerary, fields);
    state.days = await checkedDays(ctx, state, itinerary.guideId);
    await ctx.stores.itineraries.write(itinerary.id, state);
    return publicItinerary(await ctx.stores.itineraries.require(itinerary.id));
  },
});

export const setItineraryDays = defineOperation({
  ...common,
  name: 'set_itinerary_days',
  title: 'Set the days of an itinerary',
  method: 'PUT',
  path: '/itineraries/{itineraryId}/days',
  scope: 'write',
  errors: ['stale_editor'],
  example: examples.set_itinerary_days,
  description:
    'Replaces all days, in trip order: send the days array as get_itinerary returns it, changed. ' +
    'Stops by kind: spot (spotKey, note), place (facilityId), route (routeId of a route or hike), travel (mode, ' +
    'from, to), note (title, note); when is optional on all but note. Send expectedUpdatedAt from your last read.',
  input: z.strictObject({
    itineraryId: itineraryIdSchema,
    days: daysSchema,
    expectedUpdatedAt: expectedUpdatedAtSchema.optional(),
    answer: answerField,
  }),
  // The days are what was just sent (up to 60 of 30 stops): compact answers count them.
  output: itinerarySchema
    .partial()
    .required({ itineraryId: true, name: true, order: true, archived: true, updatedAt: true })
    .extend({ dayCount: compactItinerarySchema.shape.dayCount.optional().describe('Days held; compact answers only') }),
  async handler({ itineraryId, days, expectedUpdatedAt, answer }, ctx) {
    const itinerary = await openOwned(ctx, ctx.stores.itineraries, itineraryId);
    requireFresh(itineraryEdits, itinerary.updatedAt, expectedUpdatedAt);
    const state = { ...itinerary, days };
    state.days = await checkedDays(ctx, state, itinerary.guideId);
    await ctx.stores.itineraries.write(itinerary.id, state);
    const written = await ctx.stores.itineraries.require(itinerary.id);
    return answersFull({ answer }) ? publicItinerary(written) : compactItinerary(written);
  },
});

export const reorderItinerary = defineOperation({
  ...common,
  name: 'reorder_itinerary',
  title: 'Move an itinerary',
  method: 'PUT',
  path: '/itineraries/{itineraryId}/position',
  scope: 'write',
  example: examples.reorder_itinerary,
  description:
    'Moves an itinerary between two others (give previousId, nextId, or both when they are neighbours). With ' +
    'neither it moves to the end. The others keep their order.',
  input: z.strictObject({
    itineraryId: itineraryIdSchema,
    previousId: itineraryIdSchema.optional().describe('The itinerary that should precede it'),
    nextId: itineraryIdSchema.optional().describe('The itinerary that should follow it'),
  }),
  output: z.object({ ok: z.literal(true), itineraryId: z.string() }),
  async handler({ itineraryId, previousId, nextId }, ctx) {
    const itinerary = await openOwned(ctx, ctx.stores.itineraries, itineraryId);
    await ctx.stores.itineraries.order.move(itinerary.guideId, {
      id: itinerary.id,
      previousId,
      nextId,
      what: 'itinerary',
    });
    return { ok: true as const, itineraryId: itinerary.id };
  },
});

export const deleteItinerary = defineOperation({
  ...common,
  name: 'delete_itinerary',
  title: 'Delete an itinerary',
  method: 'DELETE',
  path: '/itineraries/{itineraryId}',
  scope: 'write',
  example: examples.delete_itinerary,
  description:
    'Deletes an itinerary for good; confirm with the creator first. Spots, routes and places stay. ' +
    'To hide it instead, use update_itinerary with archived true.',
  input: z.strictObject({ itineraryId: itineraryIdSchema }),
  output: z.object({ ok: z.literal(true), itineraryId: z.string(), deleted: z.literal(true) }),
  async handler(input, ctx) {
    const itinerary = await openOwned(ctx, ctx.stores.itineraries, input.itineraryId);
    await ctx.stores.itineraries.delete(itinerary.id);
    return { ok: true as const, itineraryId: itinerary.id, deleted: true as const };
  },
});

export const itineraryOperations = [
  listItineraries,
  createItinerary,
  getItinerary,
  updateItinerary,
  setItineraryDays,
  reorderItinerary,
  deleteItinerary,
];
