import { z } from 'zod';
import { defineOperation } from '../../core/operation.ts';
import { pageOutputShape } from '../../core/paging.ts';
import { productIdSchema } from '../../shared/id-fields.ts';
import { requiredText } from '../../shared/text.ts';
import type { PreparedTrack } from '../../shared/tracks/index.ts';
import { routesExamples } from './examples.ts';
import { applyHikeFields, publicHike } from './hike.patch.ts';
import { type CompactHike, compactHikeSchema, hikeFieldsSchema, hikeIdSchema, hikeSchema } from './hike.schema.ts';
import { openRoute } from './route.access.ts';
import type { StoredRoute } from './route.store.ts';
import { routeListInput, routePage } from './route-pages.ts';
import { TRACK_BODY } from './track-body.ts';
import { prepareTrackInput } from './track-fields.ts';

/** Hikes are not in the Versioning section's list; they came with update_hike and delete_hike. */
const HIKES_SINCE = '2026-10-06.8';

const describeHike =
  'A GPX file is welcome: send track {gpx: "<the file as text>"}; long tracks ' +
  "are simplified to 2,000 points and measured on every point first. The creator's figures are kept: a track " +
  'that disagrees by more than a fifth answers a warning. Over MCP a message is at most 2 MB: send a bigger GPX ' +
  'through REST (8 MB). A hikeId works wherever a routeId is asked.';

export const listHikes = defineOperation({
  name: 'list_hikes',
  title: 'List hikes',
  method: 'GET',
  path: '/guides/{productId}/hikes',
  scope: 'read',
  stability: 'beta',
  since: HIKES_SINCE,
  description:
    "Lists the guide's hikes in the order they were made, with their figures, spots and places, a page at a time " +
    '(see Paging); the lines only with includeTrack. view compact holds hikeId, name, difficulty, distanceKm, durationMin.',
  input: routeListInput,
  output: z.object({
    productId: z.string(),
    count: z.number().describe('Hikes in this answer'),
    hikes: z.array(z.union([hikeSchema, compactHikeSchema])),
    ...pageOutputShape,
  }),
  example: routesExamples.list_hikes,
  async handler(input, ctx) {
    const { items, ...page } = await routePage(ctx, 'hike', input, { full: publicHike, compact: compactHike });
    return { ...page, hikes: items };
  },
});

function compactHike(stored: StoredRoute): CompactHike {
  const { hikeId, name, difficulty, distanceKm, durationMin } = publicHike(stored);
  return { hikeId, name, difficulty, distanceKm, durationMin };
}

export const createHike = defineOperation({
  name: 'create_hike',
  title: 'Create a hike',
  method: 'POST',
  path: '/guides/{productId}/hikes',
  scope: 'write',
  stability: 'beta',
  since: HIKES_SINCE,
  successStatus: 201,
  body: TRACK_BODY,
  description: `Adds a hike. ${describeHike}`,
  input: hikeFieldsSchema
    .partial()
    .extend({ productId: productIdSchema, name: requiredText(120).describe('1 to 120 characters') })
    .strict(),
  output: hikeSchema,
  prepare: (input, ctx): Promise<PreparedTrack | undefined> => prepareTrackInput(input, ctx),
  example: routesExamples.create_hike,
  location: (hike) => `/guides/${hike.productId}/hikes`,
  async handler({ productId, ...fields }, ctx, prepared) {
    const guide = await ctx.guide(productId);
    const { routes } = ctx.stores;
    const id = await routes.insert(guide.id, 'hike', applyHikeFields(undefined, fields, prepared, ctx.warn));
    const { track: _line, ...hike } = publicHike(await routes.require(id, 'hike'));
    return hike;
  },
});

export const updateHike = defineOperation({
  name: 'update_hike',
  title: 'Update a hike',
  method: 'PATCH',
  path: '/hikes/{hikeId}',
  scope: 'write',
  stability: 'beta',
  since: HIKES_SINCE,
  body: TRACK_BODY,
  description:
    'Changes only the fields sent. Strings clear on ""; difficulty, the figures, equipment and track clear on null; ' +
    'equipment [] means no special gear; lists replace whole; transit rows with an empty note are dropped; ' +
    'descentM is never derived from gainM. track, its checks and size limits as in create_hike.',
  input: hikeFieldsSchema.partial().extend({ hikeId: hikeIdSchema }).strict(),
  output: z.object({ ok: z.literal(true), hikeId: z.string() }),
  prepare: (input, ctx): Promise<PreparedTrack | undefined> => prepareTrackInput(input, ctx),
  example: routesExamples.update_hike,
  async handler({ hikeId, ...fields }, ctx, prepared) {
    const current = await openRoute(ctx, hikeId, { kind: 'hike', field: 'hikeId', action: 'update' });
    await ctx.stores.routes.replace(current.id, applyHikeFields(current, fields, prepared, ctx.warn));
    return { ok: true as const, hikeId: current.id };
  },
});

export const deleteHike = defineOperation({
  name: 'delete_hike',
  title: 'Delete a hike',
  method: 'DELETE',
  path: '/hikes/{hikeId}',
  scope: 'write',
  stability: 'beta',
  since: HIKES_SINCE,
  description:
    'Deletes a hike for good with its links and its itinerary stops; spots and places remain. Confirm with the ' +
    'creator first.',
  input: z.strictObject({ hikeId: hikeIdSchema }),
  output: z.object({ ok: z.literal(true), hikeId: z.string(), deleted: z.literal(true) }),
  example: routesExamples.delete_hike,
  async handler(input, ctx) {
    const hike = await openRoute(ctx, input.hikeId, { kind: 'hike', field: 'hikeId', action: 'delete' });
    await ctx.deleteReferencesTo('route', { guideId: hike.guideId, routeId: hike.id });
    await ctx.stores.routes.delete(hike.id);
    return { ok: true as const, hikeId: hike.id, deleted: true as const };
  },
});

export const hikeOperations = [listHikes, createHike, updateHike, deleteHike];
