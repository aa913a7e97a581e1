import { clearable } from '../../shared/text.ts';
import type { PreparedTrack, TrackFigures } from '../../shared/tracks/index.ts';
import type { RouteWrite, StoredRoute } from './route.store.ts';
import { applyTrack } from './track-fields.ts';

/** How a kind's record takes a PATCH: fields copied as sent (null clears) and strings where "" clears. */
export interface PatchRules<R> {
  empty: R;
  plain: readonly (keyof R & string)[];
  clearable: readonly (keyof R & string)[];
}

type FiguredRecord = {
  trackFigures: TrackFigures | null;
  distanceKm?: number | null;
  gainM?: number | null;
  descentM?: number | null;
};

/**
 * A record after a write: only the fields sent change, then the line (see applyTrack). The
 * kind's own rules (names, dropped rows) run on the result.
 */
export function patchRecord<R extends FiguredRecord>(
  rules: PatchRules<R>,
  current: StoredRoute | undefined,
  input: Record<string, unknown>,
  prepared: PreparedTrack | undefined,
  warn: (message: string) => void,
): { record: R; track: RouteWrite['track'] } {
  const record: R = { ...rules.empty, ...(current?.record as Partial<R> | undefined) };
  const fields = record as Record<string, unknown>;
  for (const field of rules.plain) if (input[field] !== undefined) fields[field] = input[field];
  for (const field of rules.clearable) {
    if (input[field] !== undefined) fields[field] = clearable(input[field] as string | null);
  }
  const { track, trackFigures } = applyTrack(input, prepared, record.trackFigures, record, warn);
  record.trackFigures = trackFigures;
  return { record, track };
}

/** What every record of the table reads back with after its own fields. */
export function linkedFields(stored: StoredRoute) {
  return {
    spotKeys: stored.spotKeys,
    facilities: stored.facilities,
    ...(stored.track && { track: stored.track }),
    createdAt: stored.createdAt,
    updatedAt: stored.updatedAt,
  };
}
