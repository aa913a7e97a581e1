import type { GuideParts } from '../../core/guide-contents.ts';
import type { Stores } from '../../core/stores.ts';
import type { Guide } from '../guides/index.ts';
import { linksHeldBy } from '../links/index.ts';
import type { MediaRecord } from '../media/index.ts';

export type SpotRow = GuideParts['spots'][number];
export type PlaceRow = GuideParts['places'][number];
export type ChapterRow = GuideParts['chapters'][number];
export type RouteRow = GuideParts['routesWithTracks'][number];
export type PropertyRow = GuideParts['properties'][number];
export type ItineraryRow = GuideParts['itineraries'][number];
export type LinkCheckRow = GuideParts['linkRecords'] extends Map<string, infer R> ? R : never;

/**
 * Everything readiness and a release look at, read once: one query per table, so both cost
 * linearly in the size of the guide.
 */
export interface GuideContents {
  guide: Guide;
  /** Archived ones included: readiness looks at what names them. */
  spots: SpotRow[];
  places: PlaceRow[];
  routes: RouteRow[];
  chapters: ChapterRow[];
  photos: MediaRecord[];
  properties: PropertyRow[];
  itineraries: ItineraryRow[];
  /** The last check of each link the guide holds (links no longer held are left out). */
  linkChecks: LinkCheckRow[];
  agreementAccepted: boolean;
  /** The creator's public name (the profile's displayName) now: a release keeps it as the guide's byline. */
  creatorName: string;
  /** The sales page draft as last saved, without its updatedAt (a release does not keep it); null before the first save. */
  salesPage: (Omit<NonNullable<GuideParts['salesPage']>, 'updatedAt'> & { updatedAt?: undefined }) | null;
}

/** The parts of the whole guide readiness, a release and the preview read (core/guide-contents.ts). */
const PARTS = [
  'guide',
  'spots',
  'places',
  'routesWithTracks',
  'chapters',
  'photos',
  'properties',
  'itineraries',
  'linkRecords',
  'creator',
  'salesPage',
] as const;

export async function readGuideContents(stores: Stores, guideId: string, creatorId: string): Promise<GuideContents> {
  const parts = await stores.guideContents.read({ id: guideId, creatorId }, PARTS);
  const { guide, spots, places, routesWithTracks: routes, chapters, photos, linkRecords, creator, salesPage } = parts;
  // The records were just read: the held links come from them rather than from a second read,
  // and only when some link was ever checked.
  const held =
    linkRecords.size === 0
      ? new Set<string>()
      : new Set(linksHeldBy({ spots, areas: guide.areas, places, routes, chapters, photos }).map((l) => l.url));
  return {
    guide,
    spots,
    places,
    routes,
    chapters,
    photos,
    properties: parts.properties,
    itineraries: parts.itineraries,
    linkChecks: [...linkRecords.values()].filter((check) => held.has(check.url)),
    agreementAccepted: creator.agreementAccepted,
    creatorName: creator.displayName,
    salesPage: salesPage === null ? null : { ...salesPage, updatedAt: undefined },
  };
}
