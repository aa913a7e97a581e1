import { ApiError, refuse } from '../../core/errors.ts';
import { applyPinPosition } from '../../shared/pin-position.ts';
import { clearable } from '../../shared/text.ts';
import { type Place, type PlaceFields, type PlaceKind, placeTypes } from './facility.schema.ts';

/** Everything a place holds but its id and times. */
export type PlaceState = Omit<Place, 'facilityId' | 'createdAt' | 'updatedAt'>;

/** What a place write checks against besides its own fields. */
export interface PlaceRules {
  /** Spot ids of the guide by key (archived spots included). */
  spotIdsByKey(keys: readonly string[]): Promise<Map<string, string>>;
  /** The containing place's own parent, or undefined when no such place is in the guide. */
  parentOf(facilityId: string): Promise<{ insideId: string | null } | undefined>;
  /** Whether some place of the guide sits inside this one. */
  hasChildren(facilityId: string): Promise<boolean>;
  warn(message: string): void;
}

export function emptyPlace(kind: PlaceKind, name: string): PlaceState {
  return {
    kind,
    type: null,
    spotKeys: [],
    name,
    operator: null,
    description: null,
    costRaw: null,
    costUnit: null,
    openRaw: null,
    website: null,
    mapsUrl: null,
    extraProps: [],
    lat: null,
    lon: null,
    osmId: null,
    googlePlaceId: null,
    country: null,
    timeZone: null,
    links: [],
    bookingRequired: false,
    bookingUrl: null,
    extraKinds: [],
    insideId: null,
    needsParentTicket: false,
    conditions: null,
    parking: null,
    transport: null,
    activity: null,
    gatewayTown: null,
    status: null,
    fees: [],
    schedule: null,
    sources: [],
    reviewNotes: null,
    factsCheckedOn: null,
    reviewBy: null,
  };
}

/** Fields where "" clears, like null. */
const clearableStrings = [
  'operator',
  'description',
  'costRaw',
  'openRaw',
  'website',
  'mapsUrl',
  'osmId',
  'googlePlaceId',
  'country',
  'bookingUrl',
  'gatewayTown',
  'reviewNotes',
  'factsCheckedOn',
  'reviewBy',
] as const;

/** Fields copied as sent: null clears the nullable ones, arrays replace whole. */
const plainFields = [
  'name',
  'costUnit',
  'links',
  'bookingRequired',
  'needsParentTicket',
  'conditions',
  'parking',
  'transport',
  'activity',
  'status',
  'fees',
  'schedule',
  'sources',
] as const;

/** A place after a write: only the fields sent change. `selfId` is absent when creating. */
export async function applyPlaceFields(
  current: PlaceState,
  input: Partial<PlaceFields>,
  rules: PlaceRules,
  selfId?: string,
): Promise<PlaceState> {
  const next: PlaceState = { ...current };
  for (const field of plainFields) {
    if (input[field] !== undefined) (next as Record<string, unknown>)[field] = input[field];
  }
  for (const field of clearableStrings) {
    const value = input[field];
    if (value !== undefined) next[field] = clearable(value);
  }
  if (input.kind !== undefined) next.kind = input.kind;
  if (input.type !== undefined) next.type = input.type;
  else if (next.type !== null && !placeTypes[next.kind].includes(next.type)) {
    // A new kind without a type: the old type means nothing for it, so the kind's default applies.
    rules.warn(
      `type "${next.type}" is not a type of ${next.kind}: it was cleared, so the place reads as ${placeTypes[next.kind][0]}.`,
    );
    next.type = null;
  }
  if (next.type !== null && !placeTypes[next.kind].includes(next.type)) {
    throw new ApiError(
      'invalid_argument',
      `type: "${next.type}" is not a type of ${next.kind}; use one of ${placeTypes[next.kind].join(', ')} (or null for ${placeTypes[next.kind][0]})`,
    );
  }
  const extraKinds = input.extraKinds ?? next.extraKinds;
  next.extraKinds = [...new Set(extraKinds)].filter((k) => k !== next.kind);
  if (input.extraProps !== undefined) next.extraProps = cleanExtraProps(input.extraProps);
  applyPinPosition(next, input);
  if (input.insideId !== undefined) await checkInside(input.insideId, rules, selfId);
  if (input.insideId !== undefined) next.insideId = input.insideId;
  if (input.spotKeys !== undefined) {
    await resolveSpotKeys(input.spotKeys, rules);
    next.spotKeys = input.spotKeys;
  }
  if (next.mapsUrl !== null && (next.lat === null || next.lon === null)) {
    rules.warn(
      'mapsUrl is set without lat and lon: give both so the apps can map the place and show its distance to the spot.',
    );
  }
  if (next.gatewayTown !== null && input.gatewayTown !== undefined) {
    rules.warn(`gatewayTown is set: the apps show "${next.gatewayTown}" instead of a distance to the spot.`);
  }
  return next;
}

function cleanExtraProps(
  rows: ReadonlyArray<{ label: string; value: string }>,
): Array<{ label: string; value: string }> {
  const kept: Array<{ label: string; value: string }> = [];
  for (const [i, row] of rows.entries()) {
    const hasLabel = row.label.trim() !== '';
    const hasValue = row.value.trim() !== '';
    if (!hasLabel && !hasValue) continue;
    if (!hasLabel)
      throw refuse(`extraProps[${i}].label`, 'is empty while value is set: give both, or neither to drop the row.');
    if (!hasValue)
      throw refuse(`extraProps[${i}].value`, 'is empty while label is set: give both, or neither to drop the row.');
    kept.push(row);
  }
  return kept;
}

/** One level only: the parent must not sit inside another place, and this one must hold none. */
async function checkInside(insideId: string | null, rules: PlaceRules, selfId?: string): Promise<void> {
  if (insideId === null) return;
  if (insideId === selfId) throw refuse('insideId', 'a place cannot be inside itself.');
  const parent = await rules.parentOf(insideId);
  if (!parent)
    throw refuse('insideId', `no place with id "${insideId}" in this guide; list them with list_facilities.`);
  if (parent.insideId !== null) {
    throw refuse('insideId', 'that place is itself inside another place: places nest one level only.');
  }
  if (selfId !== undefined && (await rules.hasChildren(selfId))) {
    throw refuse('insideId', 'other places sit inside this one: places nest one level only.');
  }
}

async function resolveSpotKeys(keys: readonly string[], rules: PlaceRules): Promise<void> {
  const seen = new Set<string>();
  for (const [i, key] of keys.entries()) {
    if (seen.has(key)) throw refuse(`spotKeys[${i}]`, `"${key}" is listed twice; list each spot once.`);
    seen.add(key);
  }
  const known = await rules.spotIdsByKey(keys);
  for (const [i, key] of keys.entries()) {
    if (!known.has(key)) throw refuse(`spotKeys[${i}]`, `no spot with key "${key}" in this guide.`);
  }
}
