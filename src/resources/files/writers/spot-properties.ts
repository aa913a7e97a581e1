import type { ExportGuide, ExportSpot, ExportValue } from '../export-guide.ts';

/**
 * The fields every map format names the same way; a custom property with one of these keys is
 * renamed. An import reads them as the export's structure, never as facts about the place.
 */
export const FIXED_FIELDS: ReadonlySet<string> = new Set([
  'kind',
  'name',
  'description',
  'key',
  'area',
  'areaId',
  'collections',
  'hours',
  'links',
  'reviewNotes',
]);

/**
 * A custom property's name in a file: its key, or `property:key` when the key is one of the fixed
 * fields' names (custom keys never hold a colon, so the two can never meet).
 */
export const propertyName = (key: string) => (FIXED_FIELDS.has(key) ? `property:${key}` : key);

/** A value as one line of text, for formats whose values are text (KML ExtendedData, GPX). */
export const valueText = (value: ExportValue) => (Array.isArray(value) ? value.join(', ') : String(value));

/** A link as one line: its label (or kind) and its address or value. */
export const linkText = (link: ExportSpot['links'][number]) =>
  `${link.label ?? link.kind}: ${link.url ?? link.value ?? ''}`;

/** Each area's name by id, to name a spot's area in formats without folders. */
export const areaNames = (guide: ExportGuide) => new Map(guide.areas.map((a) => [a.id, a.name]));

/** What the file holds of a spot besides its position, as named fields in file order. */
export function spotFields(spot: ExportSpot, areaName: string | undefined): [string, ExportValue][] {
  const fields: [string, ExportValue | null | undefined][] = [
    ['key', spot.key],
    ['area', areaName],
    ['collections', spot.collections.length === 0 ? undefined : spot.collections],
    ['hours', spot.hours],
    ...spot.properties.map((p): [string, ExportValue] => [propertyName(p.key), p.value]),
    ['reviewNotes', spot.reviewNotes],
  ];
  return fields.filter((f): f is [string, ExportValue] => f[1] !== null && f[1] !== undefined);
}
