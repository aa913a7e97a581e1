import { refuse } from '../../core/errors.ts';
import { openOwned } from '../../core/guide-records.ts';
import type { OperationContext } from '../../core/operation.ts';
import type { RouteKind, StoredRoute } from './route.store.ts';

const other: Record<RouteKind, { name: string; update: string; delete: string }> = {
  route: { name: 'route', update: 'update_route', delete: 'delete_route' },
  hike: { name: 'hike', update: 'update_hike', delete: 'delete_hike' },
};

/**
 * The caller's route or hike, opened as every guide's record is (openOwned). With `kind`, a
 * missing one is called by that kind and the other kind is refused with a pointer to the operation
 * that takes it: their fields differ.
 */
export async function openRoute(
  ctx: OperationContext,
  routeId: string,
  want?: { kind: RouteKind; field: string; action: 'update' | 'delete' },
): Promise<StoredRoute> {
  const route = await openOwned(ctx, ctx.stores.routes, routeId, want?.kind);
  if (want && route.kind !== want.kind) {
    const is = other[route.kind];
    throw refuse(want.field, `"${routeId}" is a ${is.name}, not a ${want.kind}: use ${is[want.action]} for it.`);
  }
  return route;
}
