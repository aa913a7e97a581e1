import type { Area } from '../areas/index.ts';
import { routeDatedFacts } from '../routes/index.ts';
import type { PlaceRow, RouteRow, SpotRow } from './guide-contents.ts';
import type { DatedFacts } from './staleness.ts';

/**
 * The dated facts of a guide's spots, places, areas and routes, for the staleness rules. Hikes
 * carry none (no status, fees or review dates).
 */
export function datedRows(
  spots: readonly SpotRow[],
  places: readonly PlaceRow[],
  areas: readonly Area[],
  routes: readonly RouteRow[] = [],
): DatedFacts[] {
  return [
    ...spots.map((s) => ({
      kind: 'spot' as const,
      id: s.spotId,
      name: s.name,
      status: s.status,
      fees: s.fees,
      schedule: s.schedule,
      reviewBy: s.reviewBy,
      factsCheckedOn: s.factsCheckedOn,
    })),
    ...places.map((p) => ({
      kind: 'place' as const,
      id: p.facilityId,
      name: p.name,
      status: p.status,
      fees: p.fees,
      schedule: p.schedule,
      reviewBy: p.reviewBy,
      factsCheckedOn: p.factsCheckedOn,
      timetableValidUntil: p.transport?.timetableValidUntil ?? null,
    })),
    ...areas.map((a) => ({ kind: 'area' as const, id: a.id, name: a.name, status: a.status ?? null, fees: a.fees })),
    ...routes
      .filter((r) => r.kind === 'route')
      .map((r) => ({ kind: 'route' as const, ...routeDatedFacts(r.id, r.name, r.record) })),
  ];
}
