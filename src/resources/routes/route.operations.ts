import { z } from 'zod';
import { defineOperation } from '../../core/operation.ts';
import { pageOutputShape } from '../../core/paging.ts';
import { STABLE_SINCE } from '../../core/versions.ts';
import { productIdSchema } from '../../shared/id-fields.ts';
import type { PreparedTrack } from '../../shared/tracks/index.ts';
import { routesExamples } from './examples.ts';
import { openRoute } from './route.access.ts';
import { applyRouteFields, publicRoute } from './route.patch.ts';
import {
  type CompactRoute,
  compactRouteSchema,
  routeFieldsSchema,
  routeIdSchema,
  routeSchema,
} from './route.schema.ts';
import type { StoredRoute } from './route.store.ts';
import { routeListInput, routePage } from './route-pages.ts';
import { TRACK_BODY } from './track-body.ts';
import { prepareTrackInput } from './track-fields.ts';

const describeRoute =
  'A route is how buyers get between spots (a drive, a ferry, a bus line); hikes have their own operations and ' +
  "a hikeId works wherever a routeId is asked. The creator's " +
  'distance is kept and a track that disagrees by more than a fifth answers a warning.';

export const listRoutes = defineOperation({
  name: 'list_routes',
  title: 'List routes',
  method: 'GET',
  path: '/guides/{productId}/routes',
  scope: 'read',
  stability: 'stable',
  since: STABLE_SINCE,
  description:
    "Lists the guide's routes in the order they were made, with their spots and places, a page at a time (see " +
    'Paging). view compact holds routeId, name, mode, distanceKm, durationMin. Hikes are listed by list_hikes.',
  input: routeListInput,
  output: z.object({
    productId: z.string(),
    count: z.number().describe('Routes in this answer'),
    routes: z.array(z.union([routeSchema, compactRouteSchema])),
    ...pageOutputShape,
  }),
  example: routesExamples.list_routes,
  async handler(input, ctx) {
    const { items, ...page } = await routePage(ctx, 'route', input, { full: publicRoute, compact: compactRoute });
    return { ...page, routes: items };
  },
});

function compactRoute(stored: StoredRoute): CompactRoute {
  const { routeId, name, mode, distanceKm, durationMin } = publicRoute(stored);
  return { routeId, name, mode, distanceKm, durationMin };
}

export const createRoute = defineOperation({
  name: 'create_route',
  title: 'Create a route',
  method: 'POST',
  path: '/guides/{productId}/routes',
  scope: 'write',
  stability: 'stable',
  since: STABLE_SINCE,
  successStatus: 201,
  body: TRACK_BODY,
  description: `Adds a route. Link its spots with set_route_spots and its places with set_route_facilities. ${describeRoute}`,
  input: routeFieldsSchema
    .partial()
    .extend({ productId: productIdSchema, name: routeFieldsSchema.shape.name })
    .strict(),
  output: routeSchema,
  prepare: (input, ctx): Promise<PreparedTrack | undefined> => prepareTrackInput(input, ctx),
  example: routesExamples.create_route,
  location: (route) => `/guides/${route.productId}/routes`,
  async handler({ productId, ...fields }, ctx, prepared) {
    const guide = await ctx.guide(productId);
    const { routes } = ctx.stores;
    const id = await routes.insert(guide.id, 'route', applyRouteFields(undefined, fields, prepared, ctx.warn));
    const { track: _line, ...route } = publicRoute(await routes.require(id));
    return route;
  },
});

export const updateRoute = defineOperation({
  name: 'update_route',
  title: 'Update a route',
  method: 'PATCH',
  path: '/routes/{routeId}',
  scope: 'write',
  stability: 'stable',
  since: STABLE_SINCE,
  body: TRACK_BODY,
  description:
    'Changes only the fields sent: "" or null clears, arrays replace whole, track null removes the line. ' +
    'track and the distance check as in create_route.',
  input: routeFieldsSchema.partial().extend({ routeId: routeIdSchema }).strict(),
  output: routeSchema,
  prepare: (input, ctx): Promise<PreparedTrack | undefined> => prepareTrackInput(input, ctx),
  example: routesExamples.update_route,
  async handler({ routeId, ...fields }, ctx, prepared) {
    const current = await openRoute(ctx, routeId, { kind: 'route', field: 'routeId', action: 'update' });
    const { routes } = ctx.stores;
    await routes.replace(current.id, applyRouteFields(current, fields, prepared, ctx.warn));
    const { track: _line, ...route } = publicRoute(await routes.require(current.id));
    return route;
  },
});

export const deleteRoute = defineOperation({
  name: 'delete_route',
  title: 'Delete a route',
  method: 'DELETE',
  path: '/routes/{routeId}',
  scope: 'write',
  stability: 'stable',
  since: STABLE_SINCE,
  description:
    'Deletes a route for good with its links and its itinerary stops; spots and places stay. Confirm with the ' +
    'creator first. Hikes are deleted with delete_hike.',
  input: z.strictObject({ routeId: routeIdSchema }),
  output: z.object({ ok: z.literal(true), routeId: z.string(), deleted: z.literal(true) }),
  example: routesExamples.delete_route,
  async handler(input, ctx) {
    const route = await openRoute(ctx, input.routeId, { kind: 'route', field: 'routeId', action: 'delete' });
    await ctx.deleteReferencesTo('route', { guideId: route.guideId, routeId: route.id });
    await ctx.stores.routes.delete(route.id);
    return { ok: true as const, routeId: route.id, deleted: true as const };
  },
});

export const routeOperations = [listRoutes, createRoute, updateRoute, deleteRoute];
