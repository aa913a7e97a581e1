import { z } from 'zod';
import { refuse } from '../../core/errors.ts';
import { openOwned } from '../../core/guide-records.ts';
import { defineOperation } from '../../core/operation.ts';
import { STABLE_SINCE } from '../../core/versions.ts';
import { answerField, answersFull } from '../../core/write-answer.ts';
import { idSchema } from '../../shared/id-fields.ts';
import { routesExamples } from './examples.ts';
import { openRoute } from './route.access.ts';
import { routeFacilitySchema, routeIdSchema } from './route.schema.ts';

export const ROUTE_SPOTS_MAX = 200;
export const ROUTE_FACILITIES_MAX = 50;
export const SPOT_ROUTES_MAX = 100;

/** The first repeat in a list, as a refusal naming its index. */
function refuseRepeats(values: readonly string[], field: string, what: string): void {
  const seen = new Set<string>();
  for (const [i, value] of values.entries()) {
    if (seen.has(value)) throw refuse(`${field}[${i}]`, `"${value}" is listed twice; list each ${what} once.`);
    seen.add(value);
  }
}

export const setRouteSpots = defineOperation({
  name: 'set_route_spots',
  title: 'Set the spots along a route',
  method: 'PUT',
  path: '/routes/{routeId}/spots',
  scope: 'write',
  stability: 'stable',
  since: STABLE_SINCE,
  description:
    'Sets the spots along a route or hike, in travel order, by spotKey: a full replacement ([] removes them all). ' +
    'Archived spots are allowed.',
  input: z.strictObject({
    routeId: routeIdSchema,
    spotKeys: z
      .array(z.string().min(1))
      .max(ROUTE_SPOTS_MAX)
      .describe(`Spot keys of this guide, in order, each once, at most ${ROUTE_SPOTS_MAX}`),
    answer: answerField,
  }),
  output: z.object({
    ok: z.literal(true),
    routeId: z.string(),
    spotCount: z.number().describe('Spots along it now'),
    spotKeys: z.array(z.string()).optional().describe('With answer full: the spots along it, in order'),
  }),
  example: routesExamples.set_route_spots,
  async handler(input, ctx) {
    const route = await openRoute(ctx, input.routeId);
    refuseRepeats(input.spotKeys, 'spotKeys', 'spot');
    const found = await ctx.stores.spots.findByKeys(route.guideId, input.spotKeys);
    const spotIds = input.spotKeys.map((key, i) => {
      const spot = found.get(key);
      if (!spot) throw refuse(`spotKeys[${i}]`, `no spot with key "${key}" in this guide.`);
      return spot.spotId;
    });
    await ctx.stores.routes.setSpots(route.id, spotIds);
    const full = answersFull(input) && { spotKeys: input.spotKeys };
    return { ok: true as const, routeId: route.id, spotCount: spotIds.length, ...full };
  },
});

export const setSpotRoutes = defineOperation({
  name: 'set_spot_routes',
  title: 'Set the routes through a spot',
  method: 'PUT',
  path: '/spots/{spotId}/routes',
  scope: 'write',
  stability: 'stable',
  since: STABLE_SINCE,
  description:
    "Sets the routes and hikes a spot lies on: a full replacement of that spot's routes ([] takes it off all). " +
    'Each route keeps the order of its other spots; a route the spot joins gets it at its end.',
  input: z.strictObject({
    spotId: idSchema('From list_spots or create_spot'),
    routeIds: z
      .array(z.string().min(1))
      .max(SPOT_ROUTES_MAX)
      .describe(`Route or hike ids of this guide, each once, at most ${SPOT_ROUTES_MAX}`),
    answer: answerField,
  }),
  output: z.object({
    ok: z.literal(true),
    spotId: z.string(),
    routeCount: z.number().describe('Routes and hikes the spot now lies on'),
    routeIds: z
      .array(z.string())
      .optional()
      .describe('With answer full: the routes and hikes the spot now lies on, in the order they were made'),
  }),
  example: routesExamples.set_spot_routes,
  async handler(input, ctx) {
    const { spots, routes } = ctx.stores;
    const spot = await openOwned(ctx, spots, input.spotId);
    refuseRepeats(input.routeIds, 'routeIds', 'route');
    const found = await routes.findInGuide(spot.guideId, input.routeIds);
    for (const [i, id] of input.routeIds.entries()) {
      if (!found.has(id)) {
        throw refuse(`routeIds[${i}]`, `no route or hike with id "${id}" in this guide; list them with list_routes.`);
      }
    }
    await routes.setSpotRoutes(spot.spotId, input.routeIds);
    const full = answersFull(input) && { routeIds: await routes.routeIdsOfSpot(spot.spotId) };
    return { ok: true as const, spotId: spot.spotId, routeCount: input.routeIds.length, ...full };
  },
});

export const setRouteFacilities = defineOperation({
  name: 'set_route_facilities',
  title: 'Set the places on a route',
  method: 'PUT',
  path: '/routes/{routeId}/facilities',
  scope: 'write',
  stability: 'stable',
  since: STABLE_SINCE,
  description:
    'Sets the places on a route or hike (huts, ferries, parking along the way): a full replacement, at most 50, ' +
    'each place of this guide once, listed by ascending order.',
  input: z.strictObject({
    routeId: routeIdSchema,
    facilities: z
      .array(routeFacilitySchema)
      .max(ROUTE_FACILITIES_MAX)
      .describe(`At most ${ROUTE_FACILITIES_MAX}, each place once; [] removes them all`),
  }),
  output: z.object({ ok: z.literal(true), routeId: z.string(), edges: z.number().describe('Links now held') }),
  example: routesExamples.set_route_facilities,
  async handler(input, ctx) {
    const route = await openRoute(ctx, input.routeId);
    const ids = input.facilities.map((f) => f.facilityId);
    refuseRepeats(ids, 'facilities', 'place');
    const known = await ctx.stores.routes.facilityIdsInGuide(route.guideId, ids);
    for (const [i, id] of ids.entries()) {
      if (!known.has(id)) {
        throw refuse(
          `facilities[${i}].facilityId`,
          `no place with id "${id}" in this guide; list them with list_facilities.`,
        );
      }
    }
    await ctx.stores.routes.setFacilities(route.id, input.facilities);
    return { ok: true as const, routeId: route.id, edges: input.facilities.length };
  },
});

export const connectionOperations = [setRouteSpots, setSpotRoutes, setRouteFacilities];
