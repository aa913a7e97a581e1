import type { ExpressionBuilder, Selectable } from 'kysely';
import { GuideRecordsStore, recordTable } from '../../core/guide-records.ts';
import { newId } from '../../core/new-id.ts';
import type { PageRequest, View } from '../../core/paging.ts';
import { groupedBy } from '../../db/grouped.ts';
import { keysetPage, nameContains } from '../../db/keyset.ts';
import type { Database } from '../../db/tables.ts';
import { GuideOrder } from '../../shared/guide-order.ts';
import type { CustomValues } from '../properties/index.ts';
import type { CompactSpot, Spot } from './spot.schema.ts';
import type { SpotsTable } from './spot.tables.ts';

/** Everything a spot holds, as the domain sees it: ids and times aside. */
export type SpotState = Omit<Spot, 'spotId' | 'productId' | 'order' | 'createdAt' | 'updatedAt'>;

export interface OwnedSpot extends Spot {
  guideId: string;
}

const parse = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T));

function toColumns(state: SpotState) {
  return {
    spot_key: state.spotKey,
    name: state.name,
    description: state.description,
    lat: state.lat,
    lon: state.lon,
    time_zone: state.timeZone,
    pins: JSON.stringify(state.pins),
    map_links: JSON.stringify(state.mapLinks),
    links: JSON.stringify(state.links),
    status: state.status === null ? null : JSON.stringify(state.status),
    fees: JSON.stringify(state.fees),
    schedule: state.schedule === null ? null : JSON.stringify(state.schedule),
    hours: state.hours,
    sources: JSON.stringify(state.sources),
    area_id: state.areaId,
    archived: state.archived ? 1 : 0,
    custom_values: JSON.stringify(state.customValues),
    custom_notes: JSON.stringify(state.customNotes),
    review_notes: state.reviewNotes,
    facts_checked_on: state.factsCheckedOn,
    review_by: state.reviewBy,
  };
}

function toSpot(row: Selectable<SpotsTable>): OwnedSpot {
  return {
    guideId: row.guide_id,
    spotId: row.id,
    productId: row.guide_id,
    spotKey: row.spot_key,
    name: row.name,
    description: row.description,
    lat: row.lat === null ? null : Number(row.lat),
    lon: row.lon === null ? null : Number(row.lon),
    timeZone: row.time_zone,
    pins: JSON.parse(row.pins),
    mapLinks: JSON.parse(row.map_links),
    links: JSON.parse(row.links),
    status: parse(row.status),
    fees: JSON.parse(row.fees),
    schedule: parse(row.schedule),
    hours: row.hours,
    sources: JSON.parse(row.sources),
    areaId: row.area_id,
    archived: row.archived === 1,
    customValues: JSON.parse(row.custom_values),
    customNotes: JSON.parse(row.custom_notes),
    reviewNotes: row.review_notes,
    factsCheckedOn: row.facts_checked_on,
    reviewBy: row.review_by,
    order: Number(row.order_key),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

/** Which of a guide's spots a list holds. */
export interface SpotFilter {
  includeArchived: boolean;
  areaId?: string | undefined;
  /** Members of this chapter or collection. */
  collectionId?: string | undefined;
  nameContains?: string | undefined;
}

/** A spot as a page holds it: the record or its compact view, with its place in guide order. */
export interface SpotRow {
  spot: OwnedSpot | CompactSpot;
  sortKey: [number, number, string];
}

/** Guide order: the order key, then creation, then the id, which is unique. */
export const SPOT_ORDER = ['order_key', 'created_at', 'id'] as const;

const COMPACT_COLUMNS = ['id', 'spot_key', 'name', 'lat', 'lon', 'area_id', 'archived', ...SPOT_ORDER] as const;

type CompactRow = Pick<Selectable<SpotsTable>, (typeof COMPACT_COLUMNS)[number]>;

function toCompact(row: CompactRow): CompactSpot {
  return {
    spotId: row.id,
    spotKey: row.spot_key,
    name: row.name,
    lat: row.lat === null ? null : Number(row.lat),
    lon: row.lon === null ? null : Number(row.lon),
    areaId: row.area_id,
    archived: row.archived === 1,
  };
}

const sortKeyOf = (row: CompactRow): SpotRow['sortKey'] => [Number(row.order_key), Number(row.created_at), row.id];

/** The public record: the guide id is already there as productId. */
export function publicSpot({ guideId: _guideId, ...spot }: OwnedSpot): Spot {
  return spot;
}

/** Spots. All SQL about spots lives here. */
export class SpotsStore extends GuideRecordsStore<'spots', OwnedSpot> {
  protected readonly records = recordTable('spots', 'spot', (rows) => rows.map(toSpot));
  /** Where the guide's spots stand in its list. */
  readonly order = new GuideOrder(this.db, this.clock, 'spots');

  /** Spots by id, in the order asked. */
  async getMany(spotIds: readonly string[]): Promise<OwnedSpot[]> {
    if (spotIds.length === 0) return [];
    const rows = await this.db.selectFrom('spots').selectAll().where('id', 'in', spotIds).execute();
    const byId = new Map(rows.map((r) => [r.id, toSpot(r)]));
    return spotIds.map((id) => byId.get(id) as OwnedSpot);
  }

  async list(guideId: string, filter: { includeArchived: boolean; areaId?: string | undefined }): Promise<OwnedSpot[]> {
    let query = this.db.selectFrom('spots').selectAll().where('guide_id', '=', guideId);
    if (!filter.includeArchived) query = query.where('archived', '=', 0);
    if (filter.areaId !== undefined) query = query.where('area_id', '=', filter.areaId);
    const rows = await query.orderBy('order_key').orderBy('created_at').orderBy('id').execute();
    return rows.map(toSpot);
  }

  private filtered(guideId: string, filter: SpotFilter) {
    let query = this.db.selectFrom('spots').where('guide_id', '=', guideId);
    if (!filter.includeArchived) query = query.where('archived', '=', 0);
    if (filter.areaId !== undefined) query = query.where('area_id', '=', filter.areaId);
    if (filter.collectionId !== undefined) {
      const members = this.db
        .selectFrom('chapter_members')
        .select('spot_id')
        .where('chapter_id', '=', filter.collectionId)
        .where('spot_id', 'is not', null);
      query = query.where('id', 'in', members);
    }
    if (filter.nameContains !== undefined) query = query.where(nameContains(this.dialect, 'name', filter.nameContains));
    return query;
  }

  /** One page of the guide's spots in guide order, by keyset (one row more than the limit). */
  async page(guideId: string, filter: SpotFilter, request: PageRequest, view: View): Promise<SpotRow[]> {
    const query = this.filtered(guideId, filter);
    if (view === 'compact') {
      const rows = await keysetPage(query.select(COMPACT_COLUMNS), SPOT_ORDER, request).execute();
      return rows.map((row) => ({ spot: toCompact(row), sortKey: sortKeyOf(row) }));
    }
    const rows = await keysetPage(query.selectAll(), SPOT_ORDER, request).execute();
    return rows.map((row) => ({ spot: toSpot(row), sortKey: sortKeyOf(row) }));
  }

  async count(guideId: string, filter: SpotFilter): Promise<number> {
    const row = await this.filtered(guideId, filter)
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async findByKeys(guideId: string, keys: readonly string[]): Promise<Map<string, OwnedSpot>> {
    if (keys.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('spots')
      .selectAll()
      .where('guide_id', '=', guideId)
      .where('spot_key', 'in', keys)
      .execute();
    return new Map(rows.map((r) => [r.spot_key, toSpot(r)]));
  }

  /** The taken values starting with `stem` (see candidateStem). */
  async keysLike(guideId: string, stem: string): Promise<Set<string>> {
    const rows = await this.db
      .selectFrom('spots')
      .select('spot_key')
      .where('guide_id', '=', guideId)
      .where('spot_key', 'like', `${stem}%`)
      .execute();
    return new Set(rows.map((r) => r.spot_key));
  }

  async insert(guideId: string, state: SpotState, order: number): Promise<string> {
    const id = newId('sp');
    const now = this.clock.now();
    await this.db
      .insertInto('spots')
      .values({ id, guide_id: guideId, ...toColumns(state), order_key: order, created_at: now, updated_at: now })
      .execute();
    return id;
  }

  /** The spot as stored after the write (read back in the same statement). */
  async replace(spotId: string, state: SpotState): Promise<OwnedSpot> {
    const row = await this.db
      .updateTable('spots')
      .set({ ...toColumns(state), updated_at: this.clock.now() })
      .where('id', '=', spotId)
      .returningAll()
      .executeTakeFirstOrThrow();
    return toSpot(row);
  }

  async delete(spotId: string): Promise<void> {
    await this.db.deleteFrom('spots').where('id', '=', spotId).execute();
  }

  /** Spots holding a value for a custom property, for conversions. */
  async withCustomValue(
    guideId: string,
    key: string,
  ): Promise<Array<{ spotId: string; spotKey: string; customValues: CustomValues }>> {
    const rows = await this.db
      .selectFrom('spots')
      .select(['id', 'spot_key', 'custom_values'])
      .where('guide_id', '=', guideId)
      .orderBy('order_key')
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows
      .map((r) => ({ spotId: r.id, spotKey: r.spot_key, customValues: JSON.parse(r.custom_values) as CustomValues }))
      .filter((s) => Object.hasOwn(s.customValues, key));
  }

  async setCustomValues(spotId: string, values: CustomValues): Promise<void> {
    await this.db
      .updateTable('spots')
      .set({ custom_values: JSON.stringify(values), updated_at: this.clock.now() })
      .where('id', '=', spotId)
      .execute();
  }

  /** Spots that pointed at a deleted area keep everything but the pointer. */
  async clearArea(areaId: string): Promise<void> {
    await this.db
      .updateTable('spots')
      .set({ area_id: null, updated_at: this.clock.now() })
      .where('area_id', '=', areaId)
      .execute();
  }

  /** The keys of the spots pointing at each area, in guide order. */
  async keysByArea(guideId: string, areaIds: readonly string[]): Promise<Map<string, string[]>> {
    if (areaIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('spots')
      .select(['area_id', 'spot_key'])
      .where('guide_id', '=', guideId)
      .where('area_id', 'in', areaIds)
      .orderBy('order_key')
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return groupedBy(
      areaIds,
      rows,
      (row) => row.area_id as string,
      (row) => row.spot_key,
    );
  }
}

/**
 * The guide's spot count (archived ones too), as a subquery of a query over
 * `guides`: the guide record reads it in the same statement as the guide.
 */
export function spotCountOfGuide(eb: ExpressionBuilder<Database, 'guides'>) {
  return eb
    .selectFrom('spots')
    .select((e) => e.fn.countAll<number>().as('n'))
    .whereRef('spots.guide_id', '=', 'guides.id');
}
