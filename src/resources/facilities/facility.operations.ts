import { z } from 'zod';
import { type GuideList, guidePage, pageFields } from '../../core/guide-pages.ts';
import { openOwned } from '../../core/guide-records.ts';
import { defineOperation, type OperationContext } from '../../core/operation.ts';
import { nameContainsField, pageInputShape, pageOutputShape, viewField } from '../../core/paging.ts';
import { STABLE_SINCE } from '../../core/versions.ts';
import { productIdSchema } from '../../shared/id-fields.ts';
import { facilitiesExamples } from './examples.ts';
import { applyPlaceFields, emptyPlace, type PlaceRules } from './facility.input.ts';
import {
  type CompactPlace,
  compactPlaceSchema,
  facilityIdSchema,
  type Place,
  placeFieldsSchema,
  placeSchema,
} from './facility.schema.ts';
import { type PlaceRow, publicPlace } from './facility.store.ts';

function placeRules(ctx: OperationContext, guideId: string): PlaceRules {
  const { facilities, spots } = ctx.stores;
  return {
    spotIdsByKey: async (keys) => {
      const found = await spots.findByKeys(guideId, keys);
      return new Map([...found].map(([key, spot]) => [key, spot.spotId]));
    },
    parentOf: (facilityId) => facilities.parentOf(guideId, facilityId),
    hasChildren: (facilityId) => facilities.hasChildren(facilityId),
    warn: ctx.warn,
  };
}

/** The spot ids behind checked keys, in the order the keys were given. */
async function spotIdsInOrder(rules: PlaceRules, keys: readonly string[]): Promise<string[]> {
  const byKey = await rules.spotIdsByKey(keys);
  return keys.map((key) => byKey.get(key) as string);
}

const describePlace =
  // costRaw, openRaw and insideId say their own rules in their field notes.
  'Give lat and lon with mapsUrl so the apps can map the place and compute its distance to the spot.';

export const createFacility = defineOperation({
  name: 'create_facility',
  title: 'Create a place',
  method: 'POST',
  path: '/guides/{productId}/facilities',
  scope: 'write',
  stability: 'stable',
  since: STABLE_SINCE,
  example: facilitiesExamples.create_facility,
  location: (_place, input) => `/guides/${input.productId}/facilities`,
  successStatus: 201,
  description: `Adds a place to stay, eat, park, ride or book a tour, serving the spots listed in spotKeys. ${describePlace}`,
  input: placeFieldsSchema
    .partial()
    .extend({ productId: productIdSchema, kind: placeFieldsSchema.shape.kind, name: placeFieldsSchema.shape.name })
    .strict(),
  output: placeSchema,
  async handler({ productId, ...fields }, ctx) {
    // Opening the guide for a write queues other writers of this guide, so nesting checks hold.
    const guide = await ctx.guide(productId);
    const rules = placeRules(ctx, guide.id);
    const state = await applyPlaceFields(emptyPlace(fields.kind, fields.name), fields, rules);
    const { facilities } = ctx.stores;
    const id = await facilities.insert(guide.id, state, await spotIdsInOrder(rules, state.spotKeys));
    return publicPlace(await facilities.require(id));
  },
});

export const updateFacility = defineOperation({
  name: 'update_facility',
  title: 'Update a place',
  method: 'PATCH',
  path: '/facilities/{facilityId}',
  scope: 'write',
  stability: 'stable',
  since: STABLE_SINCE,
  example: facilitiesExamples.update_facility,
  description: `Changes only the fields sent: null clears a nullable field, "" clears strings, arrays replace whole. ${describePlace}`,
  input: placeFieldsSchema.partial().extend({ facilityId: facilityIdSchema }).strict(),
  output: placeSchema,
  async handler({ facilityId, ...fields }, ctx) {
    const { facilities } = ctx.stores;
    const place = await openOwned(ctx, facilities, facilityId);
    const rules = placeRules(ctx, place.guideId);
    const state = await applyPlaceFields(place, fields, rules, place.facilityId);
    const spotIds = fields.spotKeys === undefined ? undefined : await spotIdsInOrder(rules, state.spotKeys);
    await facilities.replace(place.facilityId, state, spotIds);
    return publicPlace(await facilities.require(place.facilityId));
  },
});

/** Places a page holds: a full place is about 1 KB. */
const PLACE_PAGE = { default: 50, max: 500 };

export const listFacilities = defineOperation({
  name: 'list_facilities',
  title: 'List places',
  method: 'GET',
  path: '/guides/{productId}/facilities',
  scope: 'read',
  stability: 'stable',
  since: STABLE_SINCE,
  example: facilitiesExamples.list_facilities,
  description:
    "Lists the guide's places (stays, transport, tours, food, parking), ordered by name, a page at a time (see " +
    'Paging). view compact holds facilityId, kind, type, name, lat, lon, insideId.',
  input: z.strictObject({
    productId: productIdSchema,
    nameContains: nameContainsField,
    view: viewField,
    ...pageInputShape(PLACE_PAGE),
  }),
  output: z.object({
    productId: z.string(),
    facilities: z.array(z.union([placeSchema, compactPlaceSchema])),
    ...pageOutputShape,
  }),
  async handler(input, ctx) {
    const { facilities } = ctx.stores;
    const view = input.view ?? 'full';
    const list: GuideList<PlaceRow, Place | CompactPlace> = {
      scope: `places name=${input.nameContains ?? '*'}`,
      variant: view,
      size: PLACE_PAGE,
      read: (guideId, request) => facilities.page(guideId, input.nameContains, request),
      count: (guideId) => facilities.count(guideId, input.nameContains),
      sortKey: (row) => row.sortKey,
      present: ({ place }) => (view === 'compact' ? compactPlace(place) : publicPlace(place)),
    };
    return guidePage(ctx.stores, ctx.principal.creatorId, input.productId, list, input, (guideId, page) => ({
      productId: guideId,
      facilities: page.items,
      ...pageFields(page),
    }));
  },
});

function compactPlace({ facilityId, kind, type, name, lat, lon, insideId }: Place): CompactPlace {
  return { facilityId, kind, type, name, lat, lon, insideId };
}

export const deleteFacility = defineOperation({
  name: 'delete_facility',
  title: 'Delete a place',
  method: 'DELETE',
  path: '/facilities/{facilityId}',
  scope: 'write',
  stability: 'stable',
  since: STABLE_SINCE,
  example: facilitiesExamples.delete_facility,
  description:
    'Deletes a place for good with its route and spot links and its itinerary stops (an overnight there keeps its name); confirm with the creator first. Places inside it stay.',
  input: z.strictObject({ facilityId: facilityIdSchema }),
  output: z.object({ ok: z.literal(true), facilityId: z.string(), deleted: z.literal(true) }),
  async handler(input, ctx) {
    const { facilities } = ctx.stores;
    const place = await openOwned(ctx, facilities, input.facilityId);
    await ctx.deleteReferencesTo('facility', place);
    await facilities.delete(place.facilityId);
    return { ok: true as const, facilityId: place.facilityId, deleted: true as const };
  },
});

export const facilityOperations = [listFacilities, createFacility, updateFacility, deleteFacility];
