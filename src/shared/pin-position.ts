import tzLookup from '@photostructure/tz-lookup';
import { refuse } from '../core/errors.ts';
import { unpairedCoordinate } from './geo.ts';

/** Where a record sits on the map, and the time zone that follows from it. */
export interface PinPosition {
  lat: number | null;
  lon: number | null;
  timeZone: string | null;
}

/** The IANA zone of a pin, from an offline lookup; null without a pin. */
export function timeZoneAt(lat: number | null, lon: number | null): string | null {
  if (lat === null || lon === null) return null;
  try {
    return tzLookup(lat, lon);
  } catch {
    return null;
  }
}

/**
 * A pin after a write: lat and lon come together, null in either clears both, and the time zone
 * follows. `at` names a field with the caller's path prefix.
 */
export function applyPinPosition(
  next: PinPosition,
  input: { lat?: number | null | undefined; lon?: number | null | undefined },
  at: (field: string) => string = (field) => field,
): void {
  const unpaired = input.lat === null || input.lon === null ? undefined : unpairedCoordinate(input, 'lat', 'lon');
  if (unpaired) throw refuse(at(unpaired.missing), `${unpaired.message} (null clears the pin).`);
  if (input.lat === null || input.lon === null) {
    next.lat = null;
    next.lon = null;
  } else if (input.lat !== undefined && input.lon !== undefined) {
    next.lat = input.lat;
    next.lon = input.lon;
  }
  next.timeZone = timeZoneAt(next.lat, next.lon);
}
