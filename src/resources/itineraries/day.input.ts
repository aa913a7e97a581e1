import { refuse } from '../../core/errors.ts';
import type { Day, Stop } from './itinerary.schema.ts';
import type { PlaceFacts } from './itinerary.store.ts';

/** What the days are checked against, for one guide, each asked once for all the ids sent. */
export interface DayRules {
  /** Spots of this guide by key, archived ones included. */
  spots(keys: readonly string[]): Promise<Map<string, { archived: boolean }>>;
  /** Places of this guide by id. */
  places(ids: readonly string[]): Promise<Map<string, PlaceFacts>>;
  /** Routes and hikes of this guide by id. */
  routes(ids: readonly string[]): Promise<Set<string>>;
  warn(message: string): void;
}

/** Text the creator left empty (or only spaces) is stored as absent. */
function filled(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

/** An object without its absent fields, so the stored JSON has no nulls and no empty keys. */
function compact<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

function normalStop(stop: Stop, path: string): Stop {
  switch (stop.kind) {
    case 'spot':
      return compact({ kind: stop.kind, spotKey: stop.spotKey, when: stop.when, note: filled(stop.note) });
    case 'place':
      return compact({ kind: stop.kind, facilityId: stop.facilityId, when: stop.when });
    case 'route':
      return compact({ kind: stop.kind, routeId: stop.routeId, when: stop.when });
    case 'travel':
      return compact({
        kind: stop.kind,
        mode: stop.mode,
        from: filled(stop.from),
        to: filled(stop.to),
        when: stop.when,
      });
    case 'note': {
      const note = compact({ kind: stop.kind, title: filled(stop.title), note: filled(stop.note) });
      if (note.title === undefined && note.note === undefined) {
        throw refuse(path, 'a note stop needs a title or a note; remove it if it has nothing to say.');
      }
      return note;
    }
  }
}

function normalDay(day: Day, path: string): Day {
  const stops = day.stops.map((stop, j) => normalStop(stop, `${path}.stops[${j}]`));
  let overnight: Day['overnight'];
  if (day.overnight) {
    overnight = compact({
      facilityId: day.overnight.facilityId,
      name: filled(day.overnight.name),
      note: filled(day.overnight.note),
    });
    if (overnight.facilityId === undefined && overnight.name === undefined) {
      if (overnight.note !== undefined) {
        throw refuse(`${path}.overnight`, 'say where: a place of this guide (facilityId) or a name.');
      }
      overnight = undefined;
    }
  }
  return compact({ title: filled(day.title), note: filled(day.note), stops, overnight });
}

/** Every id of one kind the days name, with the path of each mention. */
function mentions(days: readonly Day[]) {
  const spots: Array<[string, string]> = [];
  const places: Array<[string, string]> = [];
  const routes: Array<[string, string]> = [];
  days.forEach((day, i) => {
    day.stops.forEach((stop, j) => {
      const at = `days[${i}].stops[${j}]`;
      if (stop.kind === 'spot') spots.push([stop.spotKey, `${at}.spotKey`]);
      if (stop.kind === 'place') places.push([stop.facilityId, `${at}.facilityId`]);
      if (stop.kind === 'route') routes.push([stop.routeId, `${at}.routeId`]);
    });
    if (day.overnight?.facilityId !== undefined)
      places.push([day.overnight.facilityId, `days[${i}].overnight.facilityId`]);
  });
  return { spots, places, routes };
}

const same = (a: string | undefined, b: string | undefined) =>
  a !== undefined && b !== undefined && a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * The days as stored (empty text absent, no nulls), after checking that every spot, place, route
 * and hike they name is of this guide (invalid_request naming the path). What is accepted but
 * worth a look is warned about: a stop at an archived spot, a day without stops, an overnight at a
 * place that is not a stay, travel that ends where it starts.
 */
export async function checkDays(input: readonly Day[], rules: DayRules): Promise<Day[]> {
  const days = input.map((day, i) => normalDay(day, `days[${i}]`));
  const named = mentions(days);
  const spots = await rules.spots(named.spots.map(([key]) => key));
  for (const [key, path] of named.spots) {
    const spot = spots.get(key);
    if (!spot) throw refuse(path, `no spot of this guide has the key "${key}"; list them with list_spots.`);
    if (spot.archived) {
      rules.warn(
        `${path}: the spot "${key}" is archived, so buyers will not see this stop; unarchive it with update_spot or remove the stop.`,
      );
    }
  }
  const places = await rules.places(named.places.map(([id]) => id));
  for (const [id, path] of named.places) {
    const place = places.get(id);
    if (!place) throw refuse(path, `no place of this guide has the id "${id}"; list them with list_facilities.`);
    if (path.endsWith('overnight.facilityId') && !place.stay) {
      rules.warn(
        `${path}: "${place.name}" is a ${place.kind} place, not a stay (kind hut); name the stay, or give the night's place as name.`,
      );
    }
  }
  const routes = await rules.routes(named.routes.map(([id]) => id));
  for (const [id, path] of named.routes) {
    if (!routes.has(id)) {
      throw refuse(
        path,
        `no route or hike of this guide has the id "${id}"; list them with list_routes and list_hikes.`,
      );
    }
  }
  days.forEach((day, i) => {
    if (day.stops.length === 0) rules.warn(`days[${i}]: has no stops; add some or remove the day.`);
    day.stops.forEach((stop, j) => {
      if (stop.kind === 'travel' && same(stop.from, stop.to)) {
        rules.warn(`days[${i}].stops[${j}]: travel from and to are both "${stop.from}"; say where it goes.`);
      }
    });
  });
  return days;
}

/** Whether buyers could open any stop: a place, a route or hike, or a spot that is not archived. */
export async function hasOpenableStop(days: readonly Day[], rules: Pick<DayRules, 'spots'>): Promise<boolean> {
  const stops = days.flatMap((day) => day.stops);
  if (stops.some((stop) => stop.kind === 'place' || stop.kind === 'route')) return true;
  const keys = stops.flatMap((stop) => (stop.kind === 'spot' ? [stop.spotKey] : []));
  const spots = await rules.spots(keys);
  return [...spots.values()].some((spot) => !spot.archived);
}
