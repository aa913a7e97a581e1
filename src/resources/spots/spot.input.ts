import { refuse } from '../../core/errors.ts';
import { applyPinPosition } from '../../shared/pin-position.ts';
import { clearable } from '../../shared/text.ts';
import type { CustomValues, CustomValuesWriter } from '../properties/index.ts';
import type { SpotFields } from './spot.schema.ts';
import type { SpotState } from './spot.store.ts';

/** What a spot write checks against besides its own fields. */
export interface SpotRules {
  /** The guide's custom properties, read only when a write sends custom values or notes. */
  customValues(): Promise<CustomValuesWriter>;
  /** Whether an area id names an area of the same guide. */
  areaExists(areaId: string): Promise<boolean>;
}

export function emptySpot(spotKey: string, name: string): SpotState {
  return {
    spotKey,
    name,
    description: null,
    lat: null,
    lon: null,
    timeZone: null,
    pins: [],
    mapLinks: [],
    links: [],
    status: null,
    fees: [],
    schedule: null,
    hours: null,
    sources: [],
    areaId: null,
    archived: false,
    customValues: {},
    customNotes: {},
    reviewNotes: null,
    factsCheckedOn: null,
    reviewBy: null,
  };
}

/** "" clears a string; a field not sent keeps what it held. */
const patched = (value: string | undefined, current: string | null): string | null =>
  value === undefined ? current : clearable(value);

/**
 * A spot after a write: only the fields sent change. `path` prefixes refusals (e.g. `spots[3]`)
 * so a batch names the item at fault.
 */
export async function applySpotFields(
  current: SpotState,
  input: Partial<SpotFields>,
  rules: SpotRules,
  path = '',
): Promise<SpotState> {
  const at = (field: string) => (path === '' ? field : `${path}.${field}`);
  const next: SpotState = { ...current };
  if (input.name !== undefined) next.name = input.name;
  next.description = patched(input.description, current.description);
  next.hours = patched(input.hours, current.hours);
  next.reviewNotes = patched(input.reviewNotes, current.reviewNotes);
  next.factsCheckedOn = patched(input.factsCheckedOn, current.factsCheckedOn);
  next.reviewBy = patched(input.reviewBy, current.reviewBy);

  applyPinPosition(next, input, at);

  if (input.pins !== undefined) next.pins = input.pins;
  if (input.mapLinks !== undefined) next.mapLinks = input.mapLinks;
  if (input.links !== undefined) next.links = input.links;
  if (input.status !== undefined) next.status = input.status;
  if (input.fees !== undefined) next.fees = input.fees;
  if (input.schedule !== undefined) next.schedule = input.schedule;
  if (input.sources !== undefined) next.sources = input.sources;
  if (input.archived !== undefined) next.archived = input.archived;

  if (input.areaId !== undefined) {
    if (input.areaId !== null && !(await rules.areaExists(input.areaId))) {
      throw refuse(at('areaId'), `no area with id "${input.areaId}" in this guide; list them with list_areas.`);
    }
    next.areaId = input.areaId;
  }
  if (input.customValues !== undefined) {
    next.customValues = (await rules.customValues()).applyValues(
      current.customValues as CustomValues,
      input.customValues,
      at('customValues'),
    );
  }
  if (input.customNotes !== undefined) {
    const writer = await rules.customValues();
    next.customNotes = writer.applyNotes(current.customNotes, input.customNotes, at('customNotes'));
  }
  return next;
}
