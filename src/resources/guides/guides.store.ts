import type { Kysely, Selectable } from 'kysely';
import { notFound } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import type { Urls } from '../../core/operation.ts';
import type { Database, GuidesTable } from '../../db/tables.ts';
import { firstFreeSlug } from '../../shared/text.ts';
import { AreasStore } from '../areas/areas.store.ts';
import { PropertiesStore, publicProperty } from '../properties/properties.store.ts';
import { SpotsStore } from '../spots/spots.store.ts';
import type { Guide, GuideWithCounts, MapRegion } from './guide.schema.ts';
import { updateGuideRow } from './guide-row.ts';
import { viewAtRevision } from './guide-views.ts';

type GuideRow = Selectable<GuidesTable> & { creator_slug: string };

/** The working copy of a guide as its owner may change it. */
export interface OwnedGuide {
  id: string;
  creatorId: string;
  slug: string;
  name: string;
}

export interface GuidePatch {
  name?: string;
  headline?: string | null;
  purchaseButtonText?: string | null;
  country?: string | null;
  reviewsShown?: boolean;
  storeTags?: string[];
  thumbnail?: { mediaId: string; url: string } | null;
  region?: MapRegion | null;
}

const json = (value: unknown) => JSON.stringify(value);

/** Guides and their prices. All SQL about guides lives here. */
export class GuidesStore {
  private readonly db: Kysely<Database>;
  private readonly now: () => number;

  constructor(db: Kysely<Database>, now: () => number) {
    this.db = db;
    this.now = now;
  }

  private selectGuides() {
    return this.db
      .selectFrom('guides')
      .innerJoin('creators', 'creators.id', 'guides.creator_id')
      .selectAll('guides')
      .select('creators.slug as creator_slug');
  }

  /** The guide if this creator owns it; otherwise the same 404 as for an id that does not exist. */
  async requireOwned(creatorId: string, productId: string): Promise<OwnedGuide> {
    const row = await this.db
      .selectFrom('guides')
      .select(['id', 'creator_id', 'slug', 'name'])
      .where('id', '=', productId)
      .where('creator_id', '=', creatorId)
      .executeTakeFirst();
    if (!row) throw notFound('guide', productId);
    return { id: row.id, creatorId: row.creator_id, slug: row.slug, name: row.name };
  }

  async slugTaken(creatorId: string, slug: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('guides')
      .select('id')
      .where('creator_id', '=', creatorId)
      .where('slug', '=', slug)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** `base`, else `base-2`, `base-3`… whichever is free among this creator's guides. */
  async freeSlug(creatorId: string, base: string): Promise<string> {
    const rows = await this.db
      .selectFrom('guides')
      .select('slug')
      .where('creator_id', '=', creatorId)
      .where((eb) => eb.or([eb('slug', '=', base), eb('slug', 'like', `${base}-%`)]))
      .execute();
    return firstFreeSlug(base, new Set(rows.map((r) => r.slug)));
  }

  async create(creatorId: string, name: string, slug: string): Promise<string> {
    const id = newId('gd');
    const now = this.now();
    await this.db
      .insertInto('guides')
      .values({
        id,
        creator_id: creatorId,
        name,
        slug,
        headline: null,
        purchase_button_text: null,
        status: 'draft',
        visible_on_store: 0,
        store_review_status: null,
        store_review_note: null,
        store_tags: '[]',
        country: null,
        reviews_shown: 1,
        buyer_count_shown: 0,
        one_time_enabled: 1,
        subscription_included: 0,
        pricing_currency: 'usd',
        original_language: 'en',
        region: null,
        map_style: null,
        property_schema_version: 1,
        thumbnail_media_id: null,
        thumbnail_url: null,
        created_at: now,
        updated_at: now,
        published_at: null,
        last_api_write_at: null,
        revision: 0,
      })
      .execute();
    return id;
  }

  /** Applies the fields given and stamps the guide as changed by a key. */
  async update(guideId: string, patch: GuidePatch): Promise<void> {
    const now = this.now();
    const set: Partial<GuidesTable> = { updated_at: now, last_api_write_at: now };
    if (patch.name !== undefined) set.name = patch.name;
    if (patch.headline !== undefined) set.headline = patch.headline;
    if (patch.purchaseButtonText !== undefined) set.purchase_button_text = patch.purchaseButtonText;
    if (patch.country !== undefined) set.country = patch.country;
    if (patch.reviewsShown !== undefined) set.reviews_shown = patch.reviewsShown ? 1 : 0;
    if (patch.storeTags !== undefined) set.store_tags = json(patch.storeTags);
    if (patch.thumbnail !== undefined) {
      set.thumbnail_media_id = patch.thumbnail?.mediaId ?? null;
      set.thumbnail_url = patch.thumbnail?.url ?? null;
    }
    if (patch.region !== undefined) set.region = patch.region === null ? null : json(patch.region);
    await updateGuideRow(this.db, guideId, () => set).execute();
  }

  /** Whether anyone bought the guide: then its spots can no longer be deleted. */
  async hasBuyers(guideId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('purchases')
      .select('id')
      .where('guide_id', '=', guideId)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  async insertPrice(guideId: string, amountMinor: number, currency: string): Promise<string> {
    const id = newId('price');
    const now = this.now();
    // Ids are random, so created_at alone orders the rows: a change in the same millisecond as
    // the previous one must still come after it, or the latest price would be a coin toss.
    const previous = await this.db
      .selectFrom('guide_prices')
      .select((eb) => eb.fn.max('created_at').as('latest'))
      .where('guide_id', '=', guideId)
      .executeTakeFirst();
    const latest = previous?.latest == null ? undefined : Number(previous.latest);
    const createdAt = latest !== undefined && latest >= now ? latest + 1 : now;
    await this.db
      .insertInto('guide_prices')
      .values({ id, guide_id: guideId, amount_minor: amountMinor, currency, created_at: createdAt })
      .execute();
    await updateGuideRow(this.db, guideId, () => ({
      pricing_currency: currency,
      updated_at: now,
      last_api_write_at: now,
    })).execute();
    return id;
  }

  /**
   * The owned guide's record for a read outside any transaction: one small query when the
   * revision has not moved since the record was last built. (Inside a transaction a record may
   * describe writes that roll back, so writes use `get`.)
   */
  async readOwned(creatorId: string, productId: string, urls: Urls): Promise<GuideWithCounts> {
    return viewAtRevision(this.db, creatorId, productId, `record ${urls.publicUrl} ${urls.studioUrl}`, async (id) =>
      // Chapters and photos arrive with their resources; until then a guide has none.
      ({ ...(await this.get(id, urls)), chapterCount: 0, photoCount: 0 }),
    );
  }

  async get(guideId: string, urls: Urls): Promise<Guide> {
    const row = await this.selectGuides().where('guides.id', '=', guideId).executeTakeFirstOrThrow();
    const [view] = await this.views([row], urls);
    return view as Guide;
  }

  async listOwned(creatorId: string, urls: Urls, status?: GuidesTable['status']): Promise<Guide[]> {
    let query = this.selectGuides().where('guides.creator_id', '=', creatorId);
    if (status) query = query.where('guides.status', '=', status);
    const rows = await query.orderBy('guides.updated_at', 'desc').orderBy('guides.id').execute();
    return this.views(rows, urls);
  }

  private async views(rows: GuideRow[], urls: Urls): Promise<Guide[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const [prices, spotCounts, areas, properties] = await Promise.all([
      this.latestPrices(ids),
      new SpotsStore(this.db, this.now).countByGuide(ids),
      new AreasStore(this.db, this.now).listForGuides(ids),
      new PropertiesStore(this.db, this.now).listForGuides(ids),
    ]);
    return rows.map((row) =>
      toGuide(row, urls, {
        price: prices.get(row.id) ?? null,
        areas: areas.get(row.id) ?? [],
        properties: (properties.get(row.id) ?? []).map(publicProperty),
        spotCount: spotCounts.get(row.id) ?? 0,
      }),
    );
  }

  /** The newest price row of each guide: prices are immutable, the latest one counts. */
  private async latestPrices(guideIds: string[]): Promise<Map<string, { amountMinor: number; currency: string }>> {
    const rows = await this.db
      .selectFrom('guide_prices')
      .select(['guide_id', 'amount_minor', 'currency', 'created_at', 'id'])
      .where('guide_id', 'in', guideIds)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    const latest = new Map<string, { amountMinor: number; currency: string }>();
    for (const r of rows) latest.set(r.guide_id, { amountMinor: Number(r.amount_minor), currency: r.currency });
    return latest;
  }
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
    thumbnailUrl: row.thumbnail_url,
    dashboardUrl: `${urls.studioUrl}/guides/${row.id}`,
    salesPageUrl: `${urls.publicUrl}/g/${row.creator_slug}/${row.slug}`,
  };
}
