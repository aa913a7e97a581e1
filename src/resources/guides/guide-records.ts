import type { Urls } from '../../core/operation.ts';
import type { Stores } from '../../core/stores.ts';
import { fileUrl } from '../media/index.ts';
import type { Guide, GuideWithCounts, MapRegion } from './guide.schema.ts';
import type { GuideRow } from './guides.store.ts';

/** Guide records of these rows, gathering each guide's price, areas, properties and spot count. */
export async function guideRecords(stores: Stores, rows: GuideRow[], urls: Urls): Promise<Guide[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [prices, spotCounts, areas, properties] = await Promise.all([
    stores.guides.latestPrices(ids),
    stores.spots.countByGuide(ids),
    stores.areas.listForGuides(ids),
    stores.properties.publicForGuides(ids),
  ]);
  return rows.map((row) =>
    toGuide(row, urls, {
      price: prices.get(row.id) ?? null,
      areas: areas.get(row.id) ?? [],
      properties: properties.get(row.id) ?? [],
      spotCount: spotCounts.get(row.id) ?? 0,
    }),
  );
}

export async function guideRecord(stores: Stores, guideId: string, urls: Urls): Promise<Guide> {
  const [record] = await guideRecords(stores, [await stores.guides.row(guideId)], urls);
  return record as Guide;
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
): Promise<GuideWithCounts> {
  return stores.guides.cachedView(
    creatorId,
    productId,
    `record ${urls.publicUrl} ${urls.studioUrl} ${urls.mediaUrl ?? ''}`,
    async (id) => {
      const [record, chapterCounts, photoCounts] = await Promise.all([
        guideRecord(stores, id, urls),
        stores.chapters.countByGuide([id]),
        stores.media.countPhotos([id]),
      ]);
      return { ...record, chapterCount: chapterCounts.get(id) ?? 0, photoCount: photoCounts.get(id) ?? 0 };
    },
  );
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
