import { clearable } from '../../shared/text.ts';
import type { PreparedTrack } from '../../shared/tracks/index.ts';
import type { Hike, HikeFields } from './hike.schema.ts';
import { linkedFields, type PatchRules, patchRecord } from './record.patch.ts';
import type { RouteWrite, StoredRoute } from './route.store.ts';

/** What a hike holds beyond its name, as stored in its record. */
type HikeRecord = Omit<
  Hike,
  'hikeId' | 'productId' | 'name' | 'spotKeys' | 'facilities' | 'track' | 'createdAt' | 'updatedAt'
>;

/** Null clears difficulty, the figures and equipment; `equipment: []` is "no special gear", apart from null. */
const rules: PatchRules<HikeRecord> = {
  empty: {
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
  },
  plain: ['difficulty', 'distanceKm', 'durationMin', 'gainM', 'descentM', 'equipment', 'sources'],
  clearable: ['description', 'grade', 'start', 'startMapsUrl'],
};

/**
 * A hike after a write, by update_hike's rules: only the fields sent change; descentM is never
 * derived from gainM; transit rows with an empty note are dropped. `current` is absent when creating.
 */
export function applyHikeFields(
  current: StoredRoute | undefined,
  input: Partial<HikeFields>,
  prepared: PreparedTrack | undefined,
  warn: (message: string) => void,
): RouteWrite {
  const { record, track } = patchRecord(rules, current, input, prepared, warn);
  if (input.transit !== undefined) record.transit = input.transit.filter((row) => row.note.trim() !== '');
  let name = current?.name ?? null;
  if (input.name !== undefined) {
    name = clearable(input.name);
    if (name === null) warn('name was cleared: the hike has no name until you give it one.');
  }
  return { name, record, track };
}

export function publicHike(stored: StoredRoute): Hike {
  return {
    hikeId: stored.id,
    productId: stored.guideId,
    name: stored.name,
    ...rules.empty,
    ...(stored.record as Partial<HikeRecord>),
    ...linkedFields(stored),
  };
}
