import type { Urls } from '../../core/operation.ts';
import type { Stores } from '../../core/stores.ts';
import { areasFromJson } from '../areas/index.ts';
import { fileUrl } from '../media/index.ts';
import { propertiesFromJson } from '../properties/index.ts';
import type { Guide, GuideWithCounts, MapRegion } from './guide.schema.ts';
import type { GuideRecordRow, GuideRow } from './guide.store.ts';

/** A guide's record from its row and what the row read of other tables in the same statement. */
export function recordOf(row: GuideRecordRow, urls: Urls): Guide {
  return toGuide(row, urls, {
    price:
      row.price_amount_minor === null || row.price_currency === null
        ? null
        : { amountMinor: Number(row.price_amount_minor), currency: row.price_currency },
    areas: areasFromJson(row.areas),
    properties: propertiesFromJson(row.properties),
    spotCount: Number(row.spot_count),
  });
}

export async function guideRecord(stores: Stores, guideId: string, urls: Urls): Promise<Guide> {
  return recordOf(await stores.guides.recordRow(guideId), urls);
}

/**
 * The owned guide's record for a read outside any transaction: one small query when the revision
 * has not moved since the record was last built. (Inside a transaction a record may describe
 * writes that roll back, so writes use `guideRecord`.)
 */
export function cachedGuideRecord(
  stores: Stores,
  creatorId: string,
  productId: string,
  urls: Urls,
): GuideWithCounts | Promise<GuideWithCounts> {
  return stores.guides.cachedView(creatorId, productId, recordViewName(urls), async (id) => {
    const row = await stores.guides.recordRow(id);
    return { ...recordOf(row, urls), chapterCount: Number(row.chapter_count), photoCount: Number(row.photo_count) };
  });
}

/**
 * The record's view name, by the addresses it is made with: the same string while they stand (an
 * app's addresses are set once it listens), so that finding the view does not hash and compare a
 * new string on every call.
 */
const recordViewNames = new WeakMap<Urls, Urls & { name: string }>();

function recordViewName(urls: Urls): string {
  const kept = recordViewNames.get(urls);
  if (
    kept !== undefined &&
    kept.publicUrl === urls.publicUrl &&
    kept.studioUrl === urls.studioUrl &&
    kept.mediaUrl === urls.mediaUrl
  ) {
    return kept.name;
  }
  const { publicUrl, studioUrl, mediaUrl } = urls;
  const name = `record ${publicUrl} ${studioUrl} ${mediaUrl ?? ''}`;
  recordViewNames.set(urls, { publicUrl, studioUrl, mediaUrl, name });
  return name;
}

/** What a guide record gathers from other tables. */
type GuideContents = Pick<Guide, 'areas' | 'price' | 'properties' | 'spotCount'>;

function toGuide(row: GuideRow, urls: Urls, contents: GuideContents): Guide {
  return {
    productId: row.id,
    name: row.name,
    slug: row.slug,
    headline: row.headline,
    purchaseButtonText: row.purchase_button_text,
    status: row.status,
    visibleOnStore: row.visible_on_store === 1,
    storeReviewStatus: row.store_review_status,
    storeReviewNote: row.store_review_note,
    storeTags: JSON.parse(row.store_tags) as string[],
    country: row.country,
    reviewsShown: row.reviews_shown === 1,
    buyerCountShown: row.buyer_count_shown === 1,
    pricing: {
      oneTimeEnabled: row.one_time_enabled === 1,
      subscriptionIncluded: row.subscription_included === 1,
      currency: row.pricing_currency,
    },
    originalLanguage: row.original_language,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    publishedAt: row.published_at === null ? null : Number(row.published_at),
    lastApiWriteAt: row.last_api_write_at === null ? null : Number(row.last_api_write_at),
    region: row.region === null ? null : (JSON.parse(row.region) as MapRegion),
    mapStyle: row.map_style === null ? null : (JSON.parse(row.map_style) as Guide['mapStyle']),
    propertySchemaVersion: row.property_schema_version,
    ...contents,
    // The guide keeps the thumbnail's path: its address follows the public URL.
    thumbnailUrl: row.thumbnail_url === null ? null : fileUrl(urls, row.thumbnail_url),
    dashboardUrl: `${urls.studioUrl}/guides/${row.id}`,
    salesPageUrl: `${urls.publicUrl}/g/${row.creator_slug}/${row.slug}`,
  };
}
