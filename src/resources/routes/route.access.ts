import { refuse } from '../../core/errors.ts';
import type { OperationContext } from '../../core/operation.ts';
import type { RouteKind, StoredRoute } from './route.store.ts';

const other: Record<RouteKind, { name: string; update: string; delete: string }> = {
  route: { name: 'route', update: 'update_route', delete: 'delete_route' },
  hike: { name: 'hike', update: 'update_hike', delete: 'delete_hike' },
};

/**
 * The caller's route or hike with its guide opened first (locked, on a write), then read again,
 * so a write never builds on a change that committed in between. With `kind`, the other kind is
 * refused with a pointer to the operation that takes it: their fields differ.
 */
export async function openRoute(
  ctx: OperationContext,
  routeId: string,
  want?: { kind: RouteKind; field: string; action: 'update' | 'delete' },
): Promise<StoredRoute> {
  const { routes } = ctx.stores;
  const what = want?.kind ?? 'route';
  const owned = await routes.requireOwned(ctx.principal.creatorId, routeId, what);
  await ctx.guide(owned.guideId);
  const route = await routes.require(routeId, what);
  if (want && route.kind !== want.kind) {
    const is = other[route.kind];
    throw refuse(want.field, `"${routeId}" is a ${is.name}, not a ${want.kind}: use ${is[want.action]} for it.`);
  }
  return route;
}
