import { z } from 'zod';
import { type GuideList, guidePage, pageFields } from '../../core/guide-pages.ts';
import type { OperationContext } from '../../core/operation.ts';
import { nameContainsField, pageInputShape, viewField } from '../../core/paging.ts';
import { productIdSchema } from '../../shared/id-fields.ts';
import { includeTrackSchema } from './route.schema.ts';
import type { RouteKind, StoredRoute } from './route.store.ts';

/** Routes or hikes a page holds: without lines a record is about 1 KB; a line can be 60 KB, and pages end early then. */
const ROUTE_PAGE = { default: 25, max: 200 };

/** The input list_routes and list_hikes share. */
export const routeListInput = z.strictObject({
  productId: productIdSchema,
  includeTrack: includeTrackSchema,
  nameContains: nameContainsField,
  view: viewField,
  ...pageInputShape(ROUTE_PAGE),
});

/** A page of the guide's routes or hikes, each shown full or compact as asked. */
export function routePage<Full, Compact>(
  ctx: OperationContext,
  kind: RouteKind,
  input: z.output<typeof routeListInput>,
  show: { full(route: StoredRoute): Full; compact(route: StoredRoute): Compact },
) {
  const { routes } = ctx.stores;
  const view = input.view ?? 'full';
  const includeTrack = input.includeTrack === true && view === 'full';
  const list: GuideList<{ route: StoredRoute; sortKey: [number, string] }, Full | Compact> = {
    scope: `${kind}s name=${input.nameContains ?? '*'}`,
    variant: `${view} track=${includeTrack}`,
    size: ROUTE_PAGE,
    read: (guideId, request) => routes.page(guideId, kind, { nameContains: input.nameContains, includeTrack }, request),
    count: (guideId) => routes.count(guideId, kind, input.nameContains),
    sortKey: (row) => row.sortKey,
    present: ({ route }) => (view === 'compact' ? show.compact(route) : show.full(route)),
  };
  return guidePage(ctx.stores, ctx.principal.creatorId, input.productId, list, input, (guideId, page) => ({
    productId: guideId,
    count: page.items.length,
    items: page.items,
    ...pageFields(page),
  }));
}
