import type { ApiError } from '../../../core/errors.ts';
import { mediaPath } from '../../media/index.ts';
import type { ArchivedImage, ArchiveRecords } from './archive-format.ts';

/**
 * Ids as a guide's records hold them: a prefix per kind (guide, area, spot, place, route, hike,
 * chapter, itinerary, photo, stored image, property, blob key) and 96 random bits. Each is a token
 * no other text contains, so a reference is found, checked and rewired wherever a record holds it
 * (a column, a JSON field, a media path in a page) without a list of where references live.
 */
const ID_TOKEN =
  /(?<![A-Za-z0-9_-])(?:gd|ar|sp|fac|rt|hk|col|it|med|sto|prop|blob)_[A-Za-z0-9_-]{16}(?![A-Za-z0-9_-])/g;

type StoredFile = ArchivedImage['files'][keyof ArchivedImage['files']];

/** Each photo's and stored image's files, every rendition, each file once (two renditions may share one). */
export function filesOf(records: Pick<ArchiveRecords, 'photos' | 'storedImages'>): StoredFile[] {
  const byKey = new Map<string, StoredFile>();
  for (const image of [...records.photos, ...records.storedImages]) {
    for (const file of Object.values(image.files)) byKey.set(file.key, file);
  }
  return [...byKey.values()];
}

/** How many records of each kind, and files, an archive holds: its manifest's counts and an import's answer. */
export function countsOf(records: ArchiveRecords): Record<string, number> {
  return {
    areas: records.guide.areas.length,
    properties: records.properties.length,
    spots: records.spots.length,
    places: records.places.length,
    routes: records.routesWithTracks.length,
    chapters: records.chapters.length,
    photos: records.photos.length,
    storedImages: records.storedImages.length,
    itineraries: records.itineraries.length,
    files: filesOf(records).length,
  };
}

/** Where a stored file sits in the archive: `files/<key>.<ext>`, its name as served. */
export function archiveNameOf(file: { key: string; contentType: string }): string {
  return `files/${mediaPath(file).slice('/media/'.length)}`;
}

/** Every id the archive's own records are (not those they name). */
export function heldIds(records: ArchiveRecords): Set<string> {
  return new Set([
    String(records.guide.productId),
    ...records.guide.areas.map((a) => a.id),
    ...records.properties.map((p) => p.propertyDefId),
    ...records.spots.map((s) => s.spotId),
    ...records.places.map((p) => p.facilityId),
    ...records.routesWithTracks.map((r) => r.id),
    ...records.chapters.map((c) => c.id),
    ...records.photos.map((p) => p.mediaId),
    ...records.storedImages.map((i) => i.storageId),
    ...records.itineraries.map((i) => i.id),
    ...filesOf(records).map((f) => f.key),
  ]);
}

/** Every id token a value names, anywhere in it. */
export function idsNamedIn(value: unknown): Set<string> {
  return new Set(JSON.stringify(value).match(ID_TOKEN) ?? []);
}

/** The value with every id it names replaced through `map` (ids the map lacks stay as they are). */
export function rewired<T>(value: T, map: ReadonlyMap<string, string>): T {
  return JSON.parse(JSON.stringify(value).replace(ID_TOKEN, (id) => map.get(id) ?? id)) as T;
}

type Refusal = (part: string, sentence: string) => ApiError;

/**
 * The records name only what the archive holds: every id, every spot key a place, route, chapter or
 * photo names, and every photo file. A reference to anything else cannot be rewired: refused.
 */
export function checkHeldIds(records: ArchiveRecords, files: ReadonlyMap<string, Buffer>, refusal: Refusal): void {
  const held = heldIds(records);
  for (const id of idsNamedIn(records)) {
    if (!held.has(id)) throw refusal(`records.json`, `names "${id}", which the archive does not hold.`);
  }
  const keys = new Set(records.spots.map((s) => s.spotKey));
  const named = [
    ...records.places.flatMap((p) => p.spotKeys.map((key) => ['places', key] as const)),
    ...records.routesWithTracks.flatMap((r) => r.spotKeys.map((key) => ['routesWithTracks', key] as const)),
    ...records.chapters.flatMap((c) =>
      c.members.flatMap((m) => (m.spotKey === null ? [] : [['chapters', m.spotKey] as const])),
    ),
  ];
  for (const [part, key] of named) {
    if (!keys.has(key)) throw refusal(`records.json ${part}`, `names the spot key "${key}", which no spot has.`);
  }
  for (const file of filesOf(records)) {
    const name = archiveNameOf(file);
    if (!files.has(name))
      throw refusal(`records.json photos`, `names the file "${name}", which the archive does not hold.`);
  }
}
