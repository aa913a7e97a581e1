import type { Stores } from '../../core/stores.ts';
import type { Guide } from '../guides/index.ts';
import { guideRecord } from '../guides/index.ts';
import type { MediaRecord } from '../media/index.ts';

export type SpotRow = Awaited<ReturnType<Stores['spots']['list']>>[number];
export type PlaceRow = Awaited<ReturnType<Stores['places']['listForGuide']>>[number];
export type ChapterRow = Awaited<ReturnType<Stores['chapters']['list']>>[number];
export type RouteRow = Awaited<ReturnType<Stores['routes']['list']>>[number];
export type PropertyRow = Awaited<ReturnType<Stores['properties']['listForGuide']>>[number];

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
  agreementAccepted: boolean;
  salesPage: unknown;
}

/** URLs kept as paths: a release must not change when the service moves to another address. */
const PATHS_ONLY = { publicUrl: '', studioUrl: '' };

export async function readGuideContents(stores: Stores, guideId: string, creatorId: string): Promise<GuideContents> {
  const [guide, spots, places, routes, hikes, chapters, photos, properties, creator, salesPage] = await Promise.all([
    guideRecord(stores, guideId, PATHS_ONLY),
    stores.spots.list(guideId, { includeArchived: true }),
    stores.places.listForGuide(guideId),
    stores.routes.list(guideId, 'route', true),
    stores.routes.list(guideId, 'hike', true),
    stores.chapters.list(guideId),
    stores.media.listForGuide(guideId),
    stores.properties.listForGuide(guideId),
    stores.creators.require(creatorId),
    salesPageDraft(stores, guideId),
  ]);
  return {
    guide,
    spots,
    places,
    routes: [...routes, ...hikes],
    chapters,
    photos,
    properties,
    agreementAccepted: creator.agreementAccepted,
    salesPage,
  };
}

/** The sales page draft as it stands, once the sales page resource provides it; null until then. */
async function salesPageDraft(stores: Stores, guideId: string): Promise<unknown> {
  const salesPages = (stores as { salesPages?: { draftOf(guideId: string): Promise<unknown> } }).salesPages;
  return salesPages ? ((await salesPages.draftOf(guideId)) ?? null) : null;
}
