import type { ExpressionBuilder, Selectable } from 'kysely';
import { newId } from '../../core/new-id.ts';
import type { PageRequest } from '../../core/paging.ts';
import { ScopedStore, type StoreScope } from '../../core/stores.ts';
import { keysetPage, nameContains, type SortColumn } from '../../db/keyset.ts';
import type { Dialect } from '../../db/store-interface.ts';
import type { Database, GuidesTable } from '../../db/tables.ts';
import { candidateStem, firstFree } from '../../shared/text.ts';
import { areasOfGuide } from '../areas/index.ts';
import { chapterCountOfGuide } from '../chapters/index.ts';
import { photoCountOfGuide } from '../media/index.ts';
import { propertiesOfGuide } from '../properties/index.ts';
import { spotCountOfGuide } from '../spots/index.ts';
import type { MapRegion } from './guide.schema.ts';
import { updateGuideRow } from './guide-row.ts';
import type { GuideViewCache, SiblingView } from './guide-views.ts';

export type GuideRow = Selectable<GuidesTable> & { creator_slug: string };

/** A guide row with everything its record shows from other tables, read in one statement. */
export interface GuideRecordRow extends GuideRow {
  price_amount_minor: number | null;
  price_currency: string | null;
  spot_count: number;
  chapter_count: number;
  photo_count: number;
  /** JSON rows: areasFromJson and propertiesFromJson read them. */
  areas: unknown;
  properties: unknown;
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

/** Which of a creator's guides list_guides holds. */
export interface GuideFilter {
  status?: GuidesTable['status'] | undefined;
  nameContains?: string | undefined;
}

/** Most recently changed first; the id, unique, breaks ties. */
const GUIDE_ORDER: SortColumn[] = [{ column: 'guides.updated_at', descending: true }, 'guides.id'];

/** A guide's latest price (prices are immutable: the newest counts), as a subquery of a query over `guides`. */
function latestPrice<C extends 'amount_minor' | 'currency'>(eb: ExpressionBuilder<Database, 'guides'>, column: C) {
  return eb
    .selectFrom('guide_prices')
    .select(column)
    .whereRef('guide_prices.guide_id', '=', 'guides.id')
    .orderBy('guide_prices.created_at', 'desc')
    .orderBy('guide_prices.id', 'desc')
    .limit(1);
}

/**
 * What a guide record shows from other tables, selected beside the guide's row: one round trip per
 * record (or page of records) instead of one per table. Each resource says how its part is read
 * (spotCountOfGuide, areasOfGuide…).
 */
function recordParts(dialect: Dialect) {
  return (eb: ExpressionBuilder<Database, 'guides'>) => [
    latestPrice(eb, 'amount_minor').as('price_amount_minor'),
    latestPrice(eb, 'currency').as('price_currency'),
    spotCountOfGuide(eb).as('spot_count'),
    chapterCountOfGuide(eb).as('chapter_count'),
    photoCountOfGuide(eb).as('photo_count'),
    areasOfGuide(eb, dialect).as('areas'),
    propertiesOfGuide(eb, dialect).as('properties'),
  ];
}

/** Guides and their prices. All SQL about guides lives here. */
export class GuidesStore extends ScopedStore {
  /** The app's views of guides at their revision (`Caches.guideViews`). */
  private readonly views: GuideViewCache;
  private readonly arrival: number | undefined;

  constructor(scope: StoreScope, views: GuideViewCache) {
    super(scope);
    this.views = views;
    this.arrival = scope.arrival;
  }

  private selectGuides() {
    return this.db
      .selectFrom('guides')
      .innerJoin('creators', 'creators.id', 'guides.creator_id')
      .selectAll('guides')
      .select('creators.slug as creator_slug');
  }

  /**
   * Holds other writes of this creator's guide list until the transaction ends, so concurrent
   * creates cannot both take one slug (PostgreSQL; the embedded store serializes writers already).
   */
  async lockCreatorsGuides(creatorId: string): Promise<void> {
    if (this.dialect !== 'postgres') return;
    await this.db.selectFrom('creators').select('id').where('id', '=', creatorId).forUpdate().execute();
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
      .where('slug', 'like', `${candidateStem(base)}%`)
      .execute();
    return firstFree(base, new Set(rows.map((r) => r.slug)));
  }

  async create(creatorId: string, name: string, slug: string): Promise<string> {
    const id = newId('gd');
    const now = this.clock.now();
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

  /** Applies the fields given; the call that opened the guide stamps it as changed. */
  async update(guideId: string, patch: GuidePatch): Promise<void> {
    const set: Partial<GuidesTable> = {};
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
    if (Object.keys(set).length > 0) await updateGuideRow(this.db, guideId, () => set).execute();
  }

  /** The store thumbnail: the photo it was made from and the path of its file. */
  async thumbnailOf(guideId: string): Promise<{ mediaId: string; url: string } | null> {
    const row = await this.db
      .selectFrom('guides')
      .select(['thumbnail_media_id', 'thumbnail_url'])
      .where('id', '=', guideId)
      .executeTakeFirstOrThrow();
    return row.thumbnail_media_id !== null && row.thumbnail_url !== null
      ? { mediaId: row.thumbnail_media_id, url: row.thumbnail_url }
      : null;
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
    const now = this.clock.now();
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
    await updateGuideRow(this.db, guideId, () => ({ pricing_currency: currency })).execute();
    return id;
  }

  /** The guide's property schema version after one more change, written to the guide. */
  async bumpPropertySchemaVersion(guideId: string): Promise<number> {
    await updateGuideRow(this.db, guideId, (eb) => ({
      property_schema_version: eb('property_schema_version', '+', 1),
    })).execute();
    return this.propertySchemaVersion(guideId);
  }

  async propertySchemaVersion(guideId: string): Promise<number> {
    const row = await this.db
      .selectFrom('guides')
      .select('property_schema_version')
      .where('id', '=', guideId)
      .executeTakeFirstOrThrow();
    return row.property_schema_version;
  }

  /**
   * The view named `view` of the caller's guide, built by `build` and kept while the guide's
   * revision stands still, in the app's cache (guide-views.ts). For reads outside a transaction only.
   */
  cachedView<T extends object>(
    creatorId: string,
    productId: string,
    view: string,
    build: (guideId: string, sibling: SiblingView) => Promise<T>,
  ): T | Promise<T> {
    return this.views.view(this.db, creatorId, productId, view, build, this.arrival);
  }

  async recordRow(guideId: string): Promise<GuideRecordRow> {
    const query = this.selectGuides().where('guides.id', '=', guideId).select(recordParts(this.dialect));
    return (await query.executeTakeFirstOrThrow()) as GuideRecordRow;
  }

  private ownedBy(creatorId: string, filter: GuideFilter) {
    let query = this.db.selectFrom('guides').where('guides.creator_id', '=', creatorId);
    if (filter.status) query = query.where('guides.status', '=', filter.status);
    if (filter.nameContains !== undefined)
      query = query.where(nameContains(this.dialect, 'guides.name', filter.nameContains));
    return query;
  }

  /** One page of the creator's guides, most recently changed first, by keyset. */
  async pageOwned(creatorId: string, filter: GuideFilter, request: PageRequest): Promise<GuideRow[]> {
    return keysetPage(this.ownedRows(creatorId, filter), GUIDE_ORDER, request).execute();
  }

  /** The same page with what each record shows from other tables, in the same statement. */
  async pageOwnedRecords(creatorId: string, filter: GuideFilter, request: PageRequest): Promise<GuideRecordRow[]> {
    const query = this.ownedRows(creatorId, filter).select(recordParts(this.dialect));
    return (await keysetPage(query, GUIDE_ORDER, request).execute()) as GuideRecordRow[];
  }

  private ownedRows(creatorId: string, filter: GuideFilter) {
    return this.ownedBy(creatorId, filter)
      .innerJoin('creators', 'creators.id', 'guides.creator_id')
      .selectAll('guides')
      .select('creators.slug as creator_slug');
  }

  /** Every guide of a creator as the rows of their records, most recently changed first (the studio's list). */
  async recordRowsOwned(creatorId: string): Promise<GuideRecordRow[]> {
    const query = this.ownedRows(creatorId, {}).select(recordParts(this.dialect));
    return (await query.orderBy('guides.updated_at', 'desc').orderBy('guides.id').execute()) as GuideRecordRow[];
  }

  /** Whether the guide is the creator's: another's is as unknown as a missing one. */
  async isOwned(creatorId: string, guideId: string): Promise<boolean> {
    const row = await this.ownedBy(creatorId, {})
      .where('guides.id', '=', guideId)
      .select('guides.id')
      .executeTakeFirst();
    return row !== undefined;
  }

  async countOwned(creatorId: string, filter: GuideFilter): Promise<number> {
    const row = await this.ownedBy(creatorId, filter)
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
