import type { Day, Stop } from './itinerary.schema.ts';

/** Something a day can name that is about to be deleted: a spot (by key), a place, a route or hike. */
export type StopTarget =
  | { kind: 'spot'; id: string }
  | { kind: 'place'; id: string; name: string }
  | { kind: 'route'; id: string };

function names(stop: Stop, target: StopTarget): boolean {
  switch (stop.kind) {
    case 'spot':
      return target.kind === 'spot' && stop.spotKey === target.id;
    case 'place':
      return target.kind === 'place' && stop.facilityId === target.id;
    case 'route':
      return target.kind === 'route' && stop.routeId === target.id;
    default:
      return false;
  }
}

/**
 * The days without the stops naming the target; an overnight at a deleted place becomes the place's
 * name in words (the plan stays, the reference goes). The same array when nothing named it.
 */
export function withoutTarget(days: Day[], target: StopTarget): Day[] {
  let changed = false;
  const next = days.map((day) => {
    const stops = day.stops.filter((stop) => !names(stop, target));
    const overnight = day.overnight;
    const sleepsThere = target.kind === 'place' && overnight?.facilityId === target.id;
    if (stops.length === day.stops.length && !sleepsThere) return day;
    changed = true;
    const kept: Day = { ...day, stops };
    if (sleepsThere && overnight) {
      const { facilityId: _gone, ...rest } = overnight;
      kept.overnight = { ...rest, name: overnight.name ?? target.name };
    }
    return kept;
  });
  return changed ? next : days;
}
