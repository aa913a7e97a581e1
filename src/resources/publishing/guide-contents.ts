import type { Stores } from '../../core/stores.ts';
import type { Guide } from '../guides/index.ts';
import { guideRecord } from '../guides/index.ts';
import { linksHeldBy } from '../links/index.ts';
import type { MediaRecord } from '../media/index.ts';

export type SpotRow = Awaited<ReturnType<Stores['spots']['list']>>[number];
export type PlaceRow = Awaited<ReturnType<Stores['facilities']['listForGuide']>>[number];
export type ChapterRow = Awaited<ReturnType<Stores['chapters']['list']>>[number];
export type RouteRow = Awaited<ReturnType<Stores['routes']['list']>>[number];
export type PropertyRow = Awaited<ReturnType<Stores['properties']['listForGuide']>>[number];
export type ItineraryRow = Awaited<ReturnType<Stores['itineraries']['list']>>[number];
export type LinkCheckRow = Awaited<ReturnType<Stores['links']['forGuide']>> extends Map<string, infer R> ? R : never;

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
  salesPage: unknown;
}

/** URLs kept as paths: a release must not change when the service moves to another address. */
const PATHS_ONLY = { publicUrl: '', studioUrl: '' };

export async function readGuideContents(stores: Stores, guideId: string, creatorId: string): Promise<GuideContents> {
  const [guide, spots, places, routes, hikes, chapters, photos, properties, itineraries, checks, creator, salesPage] =
    await Promise.all([
      guideRecord(stores, guideId, PATHS_ONLY),
      stores.spots.list(guideId, { includeArchived: true }),
      stores.facilities.listForGuide(guideId),
      stores.routes.list(guideId, 'route', { includeTrack: true }),
      stores.routes.list(guideId, 'hike', { includeTrack: true }),
      stores.chapters.list(guideId),
      stores.media.listForGuide(guideId),
      stores.properties.listForGuide(guideId),
      stores.itineraries.list(guideId),
      stores.links.forGuide(guideId),
      stores.creators.require(creatorId),
      stores.salesPage.draftOf(guideId),
    ]);
  const allRoutes = [...routes, ...hikes];
  // The records were just read: the held links come from them rather than from a second read,
  // and only when some link was ever checked.
  const held =
    checks.size === 0
      ? new Set<string>()
      : new Set(
          linksHeldBy({ spots, areas: guide.areas, places, routes: allRoutes, chapters, photos }).map((l) => l.url),
        );
  return {
    guide,
    spots,
    places,
    routes: allRoutes,
    chapters,
    photos,
    properties,
    itineraries,
    linkChecks: [...checks.values()].filter((check) => held.has(check.url)),
    agreementAccepted: creator.agreementAccepted,
    creatorName: creator.displayName,
    salesPage: salesPage === null ? null : { ...salesPage, updatedAt: undefined },
  };
}
