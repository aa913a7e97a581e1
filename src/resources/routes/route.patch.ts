import type { PreparedTrack } from '../../shared/tracks/index.ts';
import { linkedFields, type PatchRules, patchRecord } from './record.patch.ts';
import type { Route, RouteFields } from './route.schema.ts';
import type { RouteWrite, StoredRoute } from './route.store.ts';

/** What a route holds beyond its name, as stored in its record. */
type RouteRecord = Omit<
  Route,
  'routeId' | 'productId' | 'name' | 'spotKeys' | 'facilities' | 'track' | 'createdAt' | 'updatedAt'
>;

const rules: PatchRules<RouteRecord> = {
  empty: {
    mode: null,
    description: null,
    distanceKm: null,
    durationMin: null,
    links: [],
    status: null,
    fees: [],
    sources: [],
    factsCheckedOn: null,
    reviewBy: null,
    trackFigures: null,
  },
  plain: ['mode', 'distanceKm', 'durationMin', 'links', 'status', 'fees', 'sources'],
  clearable: ['description', 'factsCheckedOn', 'reviewBy'],
};

/** A route after a write: only the fields sent change. `current` is absent when creating. */
export function applyRouteFields(
  current: StoredRoute | undefined,
  input: Partial<RouteFields>,
  prepared: PreparedTrack | undefined,
  warn: (message: string) => void,
): RouteWrite {
  const { record, track } = patchRecord(rules, current, input, prepared, warn);
  return { name: input.name ?? (current?.name as string), record, track };
}

export function publicRoute(stored: StoredRoute): Route {
  return {
    routeId: stored.id,
    productId: stored.guideId,
    name: stored.name ?? '',
    ...rules.empty,
    ...(stored.record as Partial<RouteRecord>),
    ...linkedFields(stored),
  };
}
