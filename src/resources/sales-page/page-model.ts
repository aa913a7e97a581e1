import { DISPLAY_SIZES } from '../media/index.ts';
import type { ReleaseKind, Snapshot } from '../publishing/index.ts';
import type { SalesPageContent } from './sales-page.schema.ts';

/** A photo as the page shows it: paths to its renditions, its size, and who took it. */
export interface PagePhoto {
  src: string;
  /** `path widthw, …` of the display sizes that exist, smallest first. */
  srcset: string;
  width: number;
  height: number;
  alt: string;
  /** The photographer, shown as "Photo: <name>"; null when the creator gave none (never invented). */
  credit: string | null;
  creditUrl: string | null;
  caption: string | null;
  /** The largest display size: what link previews show. */
  largePath: string;
}

export interface PageSpot {
  name: string;
  summary: string | null;
  lat: number | null;
  lon: number | null;
  photo: PagePhoto | null;
}

/** Everything the buyers' page shows, read from one release only: the working copy never reaches it. */
export interface BuyersPageModel {
  lang: string;
  guideName: string;
  /** Who made the guide: the creator's public name when the release was made; null in releases older than that. */
  creatorName: string | null;
  /** The <title> and og:title. */
  title: string;
  /** The meta description and og:description. */
  description: string | null;
  headline: string;
  promise: string | null;
  price: string | null;
  buyLabel: string;
  hero: PagePhoto | null;
  sections: SalesPageContent['sections'];
  highlights: string[];
  included: string[];
  spots: PageSpot[];
  gallery: PagePhoto[];
  faq: SalesPageContent['faq'];
  /** [west, south, east, north] of the guide's region, when it has one. */
  bbox: [number, number, number, number] | null;
}

/** The snapshot's fields the page reads (the release keeps the guide's record and rows as buyers see them). */
interface GuideFields {
  name: string;
  headline: string | null;
  purchaseButtonText: string | null;
  originalLanguage?: string;
  price: { amountMinor: number; currency: string } | null;
  region: { bbox?: [number, number, number, number] } | null;
  creatorName?: string;
}
/** A snapshot's spot as every page buyers open reads it. */
export interface SpotFields {
  spotId: string;
  spotKey: string;
  name: string;
  description: string | null;
  lat: number | null;
  lon: number | null;
}
export interface PhotoFields {
  mediaId: string;
  spotId: string | null;
  order: number;
  width: number;
  height: number;
  urls: Record<'original' | 'large' | 'medium' | 'small', string>;
  meta: { alt: string | null; caption: string | null; credit: string | null; creditUrl: string | null };
}

const DEFAULT_BUY_LABEL = 'Buy the guide';
/** Spots a page without a sales page shows as a taste. */
const FALLBACK_SPOTS = 6;
const SUMMARY_CHARS = 220;

/** The guide's language when it is a valid tag, else English. */
function languageOf(tag: string | undefined): string {
  try {
    return tag ? (Intl.getCanonicalLocales(tag)[0] ?? 'en') : 'en';
  } catch {
    return 'en';
  }
}

/** A price in minor units as a buyer in the guide's language reads it: `€29.00`, `¥2,900`. */
export function formatPrice(price: { amountMinor: number; currency: string }, lang: string): string {
  const options = { style: 'currency', currency: price.currency.toUpperCase() } as const;
  let format: Intl.NumberFormat;
  try {
    format = new Intl.NumberFormat(lang, options);
  } catch {
    format = new Intl.NumberFormat('en', options);
  }
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(price.amountMinor / 10 ** digits);
}

/** Width and height of a display size: the long edge at most `edge`, never larger than the photo. */
function sizeAt(photo: PhotoFields, edge: number): { width: number; height: number } {
  const long = Math.max(photo.width, photo.height);
  if (long <= edge) return { width: photo.width, height: photo.height };
  const scale = edge / long;
  return { width: Math.round(photo.width * scale), height: Math.round(photo.height * scale) };
}

export function pagePhoto(photo: PhotoFields, caption?: string): PagePhoto {
  const seen = new Set<number>();
  const candidates: string[] = [];
  for (const name of ['small', 'medium', 'large'] as const) {
    const { width } = sizeAt(photo, DISPLAY_SIZES[name]);
    if (seen.has(width)) continue;
    seen.add(width);
    candidates.push(`${photo.urls[name]} ${width}w`);
  }
  const shown = sizeAt(photo, DISPLAY_SIZES.medium);
  const credit = photo.meta.credit?.trim() ? photo.meta.credit.trim() : null;
  return {
    src: photo.urls.medium,
    srcset: candidates.join(', '),
    width: shown.width,
    height: shown.height,
    alt: photo.meta.alt ?? caption ?? photo.meta.caption ?? '',
    credit,
    creditUrl: credit === null ? null : photo.meta.creditUrl,
    caption: caption ?? photo.meta.caption,
    largePath: photo.urls.large,
  };
}

/** The first paragraph of a description, cut at a word near SUMMARY_CHARS. */
function summaryOf(description: string | null): string | null {
  const first = description?.split(/\n\s*\n/)[0]?.trim();
  if (!first) return null;
  if (first.length <= SUMMARY_CHARS) return first;
  const cut = first.slice(0, SUMMARY_CHARS);
  const space = cut.lastIndexOf(' ');
  return `${(space > SUMMARY_CHARS / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

const orderOf = (row: unknown): number => {
  const order = (row as { order?: unknown }).order;
  return typeof order === 'number' && Number.isFinite(order) ? order : 0;
};

/**
 * A snapshot's rows of one kind in the order buyers see them (rows without an order keep the
 * snapshot's): the buyers' page of a release and the preview of a working copy read rows this one way.
 */
export function snapshotItems<T>(snapshot: Snapshot, kind: ReleaseKind): T[] {
  return (Object.values(snapshot.items[kind] ?? {}) as T[]).sort((a, b) => orderOf(a) - orderOf(b));
}

/** The page a release describes: its sales page, or when it has none, one made from the guide itself. */
export function buyersPageModel(snapshot: Snapshot): BuyersPageModel {
  const guide = snapshot.guide as unknown as GuideFields;
  const salesPage = snapshot.salesPage as SalesPageContent | null;
  const spots = snapshotItems<SpotFields>(snapshot, 'spot');
  const photos = snapshotItems<PhotoFields>(snapshot, 'photo');
  const photoById = new Map(photos.map((p) => [p.mediaId, p]));
  const firstPhotoOfSpot = new Map<string, PhotoFields>();
  for (const p of photos) if (p.spotId !== null && !firstPhotoOfSpot.has(p.spotId)) firstPhotoOfSpot.set(p.spotId, p);
  const spotByKey = new Map(spots.map((s) => [s.spotKey, s]));
  const lang = languageOf(guide.originalLanguage);

  // Archived sample spots and photos are not in the release: they are left out, not shown broken.
  const sampleSpots = salesPage
    ? salesPage.sampleSpotKeys.flatMap((key) => spotByKey.get(key) ?? [])
    : spots.slice(0, FALLBACK_SPOTS);
  const photoOf = (id: string | null, caption?: string) => {
    const photo = id === null ? undefined : photoById.get(id);
    return photo ? pagePhoto(photo, caption) : null;
  };

  const headline = salesPage?.headline ?? guide.name;
  const promise = salesPage ? salesPage.promise : guide.headline;
  const bbox = guide.region?.bbox;
  return {
    lang,
    guideName: guide.name,
    creatorName: guide.creatorName?.trim() || null,
    title: salesPage?.searchTitle ?? headline,
    description: salesPage?.searchDescription ?? promise ?? null,
    headline,
    promise,
    price: guide.price ? formatPrice(guide.price, lang) : null,
    buyLabel: guide.purchaseButtonText ?? DEFAULT_BUY_LABEL,
    hero: photoOf(salesPage?.heroMediaId ?? null),
    sections: salesPage?.sections ?? [],
    highlights: salesPage?.highlights ?? [],
    included:
      salesPage?.included ?? (spots.length > 0 ? [`${spots.length} ${spots.length === 1 ? 'spot' : 'spots'}`] : []),
    spots: sampleSpots.map((s) => ({
      name: s.name,
      summary: summaryOf(s.description),
      lat: s.lat,
      lon: s.lon,
      photo: firstPhotoOfSpot.has(s.spotId) ? pagePhoto(firstPhotoOfSpot.get(s.spotId) as PhotoFields) : null,
    })),
    gallery: (salesPage?.gallery ?? []).flatMap((g) => photoOf(g.mediaId, g.caption) ?? []),
    faq: salesPage?.faq ?? [],
    bbox: Array.isArray(bbox) && bbox.length === 4 ? bbox : null,
  };
}
