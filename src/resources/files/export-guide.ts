import { refuse } from '../../core/errors.ts';
import type { GuideParts } from '../../core/guide-contents.ts';
import type { Area } from '../areas/index.ts';
import type { ExportFrom, ExportRequest } from './export-formats.ts';

type SpotRow = GuideParts['spots'][number];
type RouteRow = GuideParts['routesWithTracks'][number];
type PropertyRow = GuideParts['properties'][number];
type ChapterRow = GuideParts['chapters'][number];

/** A value a map file holds for a property: text, a number, or a list (a checkbox's labels). */
export type ExportValue = string | number | boolean | string[];

export interface ExportLink {
  kind: string;
  label: string | undefined;
  /** A web address, or a channel that is not one (a phone number). */
  url: string | undefined;
  value: string | undefined;
}

/** A spot as every map format writes it. */
export interface ExportSpot {
  id: string;
  key: string;
  name: string;
  description: string | null;
  lat: number | null;
  lon: number | null;
  /** The area it belongs to, when that area is in the file. */
  areaId: string | null;
  hours: string | null;
  links: ExportLink[];
  /** Custom property values by the property's key, options as their labels; unset ones left out. */
  properties: { key: string; label: string; value: ExportValue }[];
  /** The names of the chapters and collections that list it, in the guide's order: its layers in a map app. */
  collections: string[];
  /** The working copy's notes for reviewers; never in a live export (a release does not hold them). */
  reviewNotes: string | null;
}

export interface ExportArea {
  id: string;
  name: string;
  kind: string | null;
  note: string | null;
  season: string | null;
}

/** A route or hike: a line when it has a track, else a record without geometry. */
export interface ExportLine {
  id: string;
  kind: 'route' | 'hike';
  name: string;
  description: string | null;
  distanceKm: number | null;
  /** [lon, lat, ele?] in order; null without a track. */
  coordinates: number[][] | null;
}

/** The guide as the map formats write it: the same shape whichever copy it comes from. */
export interface ExportGuide {
  productId: string;
  name: string;
  slug: string;
  from: ExportFrom;
  areas: ExportArea[];
  spots: ExportSpot[];
  lines: ExportLine[];
}

const textOr = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** A custom value as buyers read it: option ids become their labels; an id no longer defined stays as it is. */
function readableValue(property: PropertyRow | undefined, value: unknown): ExportValue | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const label = (id: unknown) => property?.options.find((o) => o.id === id)?.label ?? String(id);
  if (Array.isArray(value)) return value.length === 0 ? undefined : value.map(label);
  if (property?.kind === 'singleSelect') return label(value);
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return JSON.stringify(value);
}

/** What a spot is read with beside its row: the property definitions, and the chapters listing each spot key. */
interface SpotContext {
  properties: ReadonlyMap<string, PropertyRow>;
  collections: ReadonlyMap<string, string[]>;
}

/** Each spot key's chapters and collections, by name, in the guide's order. */
function collectionsBySpot(chapters: readonly Pick<ChapterRow, 'name' | 'members' | 'order'>[]): Map<string, string[]> {
  const bySpot = new Map<string, string[]>();
  for (const chapter of [...chapters].sort((a, b) => a.order - b.order)) {
    for (const member of chapter.members) {
      if (member.spotKey === null) continue;
      const names = bySpot.get(member.spotKey) ?? [];
      if (!names.includes(chapter.name)) names.push(chapter.name);
      bySpot.set(member.spotKey, names);
    }
  }
  return bySpot;
}

/** Reads a spot row of either copy: a release's rows are the working rows without the reviewer-only fields. */
function spotOf(row: Partial<SpotRow>, { properties, collections }: SpotContext): ExportSpot {
  const custom = row.customValues ?? {};
  return {
    id: String(row.spotId),
    key: String(row.spotKey),
    name: String(row.name),
    description: textOr(row.description),
    lat: row.lat ?? null,
    lon: row.lon ?? null,
    areaId: row.areaId ?? null,
    hours: textOr(row.hours),
    links: (row.links ?? []).map((l) => ({ kind: l.kind, label: l.label, url: l.url, value: l.value })),
    properties: Object.entries(custom).flatMap(([key, raw]) => {
      const property = properties.get(key);
      const value = readableValue(property, raw);
      return value === undefined ? [] : [{ key, label: property?.label ?? key, value }];
    }),
    collections: collections.get(String(row.spotKey)) ?? [],
    reviewNotes: textOr(row.reviewNotes),
  };
}

function areaOf(area: Area): ExportArea {
  return {
    id: area.id,
    name: area.name,
    kind: area.kind ?? null,
    note: textOr(area.note),
    season: textOr(area.season),
  };
}

function lineOf(route: RouteRow): ExportLine {
  const record = route.record;
  return {
    id: route.id,
    kind: route.kind === 'hike' ? 'hike' : 'route',
    name: route.name ?? String(record.name ?? ''),
    description: textOr(record.description),
    distanceKm: typeof record.distanceKm === 'number' ? record.distanceKm : null,
    coordinates: route.track?.coordinates ?? null,
  };
}

/**
 * The guide's places and lines from the copy asked for. Archived spots are in neither: they are
 * retired from the guide. Option labels come from the working property definitions in both, as a
 * release keeps values, not definitions.
 */
export async function readExportGuide(request: ExportRequest): Promise<ExportGuide> {
  const { stores, guide: ref, from } = request;
  const parts = await stores.guideContents.read(ref, ['guide', 'properties']);
  const properties = new Map(parts.properties.map((p) => [p.key, p]));
  const guide = { productId: ref.id, name: parts.guide.name, slug: parts.guide.slug, from };
  if (from === 'live') {
    const release = await stores.releases.current(ref.id);
    if (!release) {
      throw refuse('from', 'the guide was never published; export from working instead.');
    }
    const { items } = release.snapshot;
    const rows = <T>(kind: keyof typeof items) => Object.values(items[kind]) as T[];
    const context = { properties, collections: collectionsBySpot(rows<ChapterRow>('chapter')) };
    return {
      ...guide,
      name: String(release.snapshot.guide.name ?? guide.name),
      areas: rows<Area>('area').map(areaOf),
      spots: rows<Partial<SpotRow>>('spot').map((s) => spotOf(s, context)),
      lines: rows<RouteRow>('route').map(lineOf),
    };
  }
  const working = await stores.guideContents.read(ref, ['spots', 'routesWithTracks', 'chapters']);
  const context = { properties, collections: collectionsBySpot(working.chapters) };
  return {
    ...guide,
    areas: parts.guide.areas.map(areaOf),
    spots: working.spots.filter((s) => !s.archived).map((s) => spotOf(s, context)),
    lines: working.routesWithTracks.map(lineOf),
  };
}

/** How many of each kind the guide holds, whatever a format then writes of them. */
export function countsOf(guide: ExportGuide) {
  return {
    spots: guide.spots.length,
    areas: guide.areas.length,
    routes: guide.lines.filter((l) => l.kind === 'route').length,
    hikes: guide.lines.filter((l) => l.kind === 'hike').length,
  };
}
