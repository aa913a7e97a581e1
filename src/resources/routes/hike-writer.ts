import { clearable } from '../../shared/text.ts';
import type { PreparedTrack } from '../hikes/index.ts';
import type { Hike, HikeFields } from './hike.schema.ts';
import type { RouteWrite, StoredRoute } from './routes.store.ts';
import { applyTrack } from './track-fields.ts';

/** What a hike holds beyond its name, as stored in its record. */
type HikeRecord = Omit<
  Hike,
  'hikeId' | 'productId' | 'name' | 'spotKeys' | 'facilities' | 'track' | 'createdAt' | 'updatedAt'
>;

const emptyRecord: HikeRecord = {
  description: null,
  difficulty: null,
  distanceKm: null,
  durationMin: null,
  gainM: null,
  descentM: null,
  grade: null,
  start: null,
  startMapsUrl: null,
  equipment: null,
  transit: [],
  sources: [],
  trackFigures: null,
};

/** Null clears these; `equipment: []` is kept as "no special gear", apart from null ("unknown"). */
const plainFields = ['difficulty', 'distanceKm', 'durationMin', 'gainM', 'descentM', 'equipment', 'sources'] as const;
/** Strings that clear on "". */
const clearableFields = ['description', 'grade', 'start', 'startMapsUrl'] as const;

/**
 * A hike after a write, by update_hike's rules: only the fields sent change; descentM is never
 * derived from gainM; transit rows with an empty note are dropped. `current` is absent when creating.
 */
export function writeHike(
  current: StoredRoute | undefined,
  input: Partial<HikeFields>,
  prepared: PreparedTrack | undefined,
  warn: (message: string) => void,
): RouteWrite {
  const record: HikeRecord = { ...emptyRecord, ...(current?.record as Partial<HikeRecord> | undefined) };
  for (const field of plainFields) {
    if (input[field] !== undefined) (record as Record<string, unknown>)[field] = input[field];
  }
  for (const field of clearableFields) {
    const value = input[field];
    if (value !== undefined) record[field] = clearable(value);
  }
  if (input.transit !== undefined) {
    record.transit = input.transit.filter((row) => row.note.trim() !== '');
  }
  let name = current?.name ?? null;
  if (input.name !== undefined) {
    name = clearable(input.name);
    if (name === null) warn('name was cleared: the hike has no name until you give it one.');
  }
  const { track, trackFigures } = applyTrack(input, prepared, record.trackFigures, record, warn);
  record.trackFigures = trackFigures;
  return { name, record, track };
}

export function publicHike(stored: StoredRoute): Hike {
  const record = { ...emptyRecord, ...(stored.record as Partial<HikeRecord>) };
  return {
    hikeId: stored.id,
    productId: stored.guideId,
    name: stored.name,
    ...record,
    spotKeys: stored.spotKeys,
    facilities: stored.facilities,
    ...(stored.track && { track: stored.track }),
    createdAt: stored.createdAt,
    updatedAt: stored.updatedAt,
  };
}
