import { clearable } from '../../shared/text.ts';
import type { PreparedTrack } from '../hikes/index.ts';
import type { Route, RouteFields } from './route.schema.ts';
import type { RouteWrite, StoredRoute } from './routes.store.ts';
import { applyTrack } from './track-fields.ts';

/** What a route holds beyond its name, as stored in its record. */
type RouteRecord = Omit<
  Route,
  'routeId' | 'productId' | 'name' | 'spotKeys' | 'facilities' | 'track' | 'createdAt' | 'updatedAt'
>;

const emptyRecord: RouteRecord = {
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
};

/** Fields copied as sent: null clears the nullable ones, arrays replace whole. */
const plainFields = ['mode', 'distanceKm', 'durationMin', 'links', 'status', 'fees', 'sources'] as const;
/** Fields where "" clears, like null. */
const clearableFields = ['description', 'factsCheckedOn', 'reviewBy'] as const;

/**
 * A route after a write: only the fields sent change. `current` is absent when creating. The
 * track was read in the operation's prepare phase.
 */
export function writeRoute(
  current: StoredRoute | undefined,
  input: Partial<RouteFields>,
  prepared: PreparedTrack | undefined,
  warn: (message: string) => void,
): RouteWrite {
  const record: RouteRecord = { ...emptyRecord, ...(current?.record as Partial<RouteRecord> | undefined) };
  for (const field of plainFields) {
    if (input[field] !== undefined) (record as Record<string, unknown>)[field] = input[field];
  }
  for (const field of clearableFields) {
    const value = input[field];
    if (value !== undefined) record[field] = clearable(value);
  }
  const { track, trackFigures } = applyTrack(input, prepared, record.trackFigures, record, warn);
  record.trackFigures = trackFigures;
  return { name: input.name ?? (current?.name as string), record, track };
}

export function publicRoute(stored: StoredRoute): Route {
  const record = { ...emptyRecord, ...(stored.record as Partial<RouteRecord>) };
  return {
    routeId: stored.id,
    productId: stored.guideId,
    name: stored.name ?? '',
    ...record,
    spotKeys: stored.spotKeys,
    facilities: stored.facilities,
    ...(stored.track && { track: stored.track }),
    createdAt: stored.createdAt,
    updatedAt: stored.updatedAt,
  };
}
