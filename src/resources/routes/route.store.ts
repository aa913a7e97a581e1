import type { Selectable } from 'kysely';
import { refuse } from '../../core/errors.ts';
import { GuideRecordsStore, recordTable } from '../../core/guide-records.ts';
import { newId } from '../../core/new-id.ts';
import type { PageRequest } from '../../core/paging.ts';
import { groupedBy } from '../../db/grouped.ts';
import { keysetPage, nameContains } from '../../db/keyset.ts';
import type { Fee } from '../../shared/fees.ts';
import type { StatusNotice } from '../../shared/status.ts';
import type { HikeLine } from '../../shared/tracks/index.ts';
import type { RoutesTable } from './route.tables.ts';

export type RouteKind = RoutesTable['kind'];

/** A row of the routes table as the domain sees it; `record` holds the kind's own fields. */
export interface StoredRoute {
  id: string;
  guideId: string;
  kind: RouteKind;
  name: string | null;
  record: Record<string, unknown>;
  /** The stored line, when it was asked for (lists leave it out unless told). */
  track?: HikeLine | null;
  spotKeys: string[];
  facilities: Array<{ facilityId: string; order: number }>;
  createdAt: number;
  updatedAt: number;
}

/** What a write stores of a row: the line is left as it is when undefined. */
export interface RouteWrite {
  name: string | null;
  record: Record<string, unknown>;
  track?: HikeLine | null;
}

/** A route or hike of a guide, as an itinerary stop (or any other reference) sees it. */
export interface RouteRef {
  routeId: string;
  kind: RouteKind;
  name: string | null;
}

/** What stale notices read of a route. */
export interface RouteDatedFacts {
  id: string;
  name: string;
  status: StatusNotice | null;
  fees: Fee[];
  reviewBy: string | null;
  factsCheckedOn: string | null;
}

/** The dated facts a route's record holds, for stale notices and readiness. */
export function routeDatedFacts(id: string, name: string | null, record: Record<string, unknown>): RouteDatedFacts {
  const facts = record as Partial<Omit<RouteDatedFacts, 'id' | 'name'>>;
  return {
    id,
    name: name ?? '',
    status: facts.status ?? null,
    fees: facts.fees ?? [],
    reviewBy: facts.reviewBy ?? null,
    factsCheckedOn: facts.factsCheckedOn ?? null,
  };
}

const ROUTE_PREFIX: Record<RouteKind, string> = { route: 'rt', hike: 'hk' };

type RowWithoutTrack = Omit<Selectable<RoutesTable>, 'track'> & { track?: string | null };

/** Routes, hikes and their links to spots and places. All SQL about them lives here. */
export class RoutesStore extends GuideRecordsStore<'routes', StoredRoute> {
  /** A hike's lookups say `hike` instead (their `noun` argument). */
  protected readonly records = recordTable('routes', 'route', (rows) => this.withLinks(rows, { includeTrack: true }));

  /** The guide's rows of one kind, in the order they were made. */
  async list(guideId: string, kind: RouteKind, { includeTrack }: { includeTrack: boolean }): Promise<StoredRoute[]> {
    const columns = ['id', 'guide_id', 'kind', 'name', 'record', 'position', 'created_at', 'updated_at'] as const;
    const query = this.db
      .selectFrom('routes')
      .select(includeTrack ? [...columns, 'track'] : [...columns])
      .where('guide_id', '=', guideId)
      .where('kind', '=', kind)
      .orderBy('position');
    return this.withLinks(await query.execute(), { includeTrack });
  }

  private ofKind(guideId: string, kind: RouteKind, nameText: string | undefined) {
    const query = this.db.selectFrom('routes').where('guide_id', '=', guideId).where('kind', '=', kind);
    return nameText === undefined ? query : query.where(nameContains(this.dialect, 'name', nameText));
  }

  /** One page of the guide's rows of one kind in the order they were made, by keyset. */
  async page(
    guideId: string,
    kind: RouteKind,
    filter: { nameContains?: string | undefined; includeTrack: boolean },
    request: PageRequest,
  ): Promise<Array<{ route: StoredRoute; sortKey: [number, string] }>> {
    const columns = ['id', 'guide_id', 'kind', 'name', 'record', 'position', 'created_at', 'updated_at'] as const;
    const query = this.ofKind(guideId, kind, filter.nameContains).select(
      filter.includeTrack ? [...columns, 'track'] : [...columns],
    );
    const rows = await keysetPage(query, ['position', 'id'], request).execute();
    const routes = await this.withLinks(rows, filter);
    return routes.map((route, i) => ({ route, sortKey: [Number(rows[i]?.position), route.id] }));
  }

  async count(guideId: string, kind: RouteKind, nameText: string | undefined): Promise<number> {
    const row = await this.ofKind(guideId, kind, nameText)
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * The dated facts of the guide's routes, for stale notices (hikes carry none: no status, fees or
   * review dates).
   */
  async datedFacts(guideId: string): Promise<RouteDatedFacts[]> {
    const rows = await this.db
      .selectFrom('routes')
      .select(['id', 'name', 'record'])
      .where('guide_id', '=', guideId)
      .where('kind', '=', 'route')
      .orderBy('position')
      .execute();
    return rows.map((row) => routeDatedFacts(row.id, row.name, JSON.parse(row.record)));
  }

  /** Which of these ids are routes or hikes of the guide, with their kind and name. */
  async findInGuide(guideId: string, routeIds: readonly string[]): Promise<Map<string, RouteRef>> {
    if (routeIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('routes')
      .select(['id', 'kind', 'name'])
      .where('guide_id', '=', guideId)
      .where('id', 'in', [...new Set(routeIds)])
      .execute();
    return new Map(rows.map((r) => [r.id, { routeId: r.id, kind: r.kind, name: r.name }]));
  }

  /**
   * A route or hike of this guide, or invalid_request at `path` (for a reference to one, such as
   * an itinerary stop of kind route).
   */
  async requireInGuide(guideId: string, routeId: string, path: string): Promise<RouteRef> {
    const found = (await this.findInGuide(guideId, [routeId])).get(routeId);
    if (!found) {
      throw refuse(
        path,
        `no route or hike with id "${routeId}" in this guide; list them with list_routes and list_hikes.`,
      );
    }
    return found;
  }

  /** Which of these places belong to the guide (a route links only its own guide's places). */
  async facilityIdsInGuide(guideId: string, facilityIds: readonly string[]): Promise<Set<string>> {
    if (facilityIds.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('facilities')
      .select('id')
      .where('guide_id', '=', guideId)
      .where('id', 'in', [...new Set(facilityIds)])
      .execute();
    return new Set(rows.map((r) => r.id));
  }

  async insert(guideId: string, kind: RouteKind, write: RouteWrite): Promise<string> {
    const id = newId(ROUTE_PREFIX[kind]);
    const now = this.clock.now();
    const last = await this.db
      .selectFrom('routes')
      .select((eb) => eb.fn.max('position').as('max'))
      .where('guide_id', '=', guideId)
      .executeTakeFirst();
    await this.db
      .insertInto('routes')
      .values({
        id,
        guide_id: guideId,
        kind,
        name: write.name,
        record: JSON.stringify(write.record),
        track: write.track ? JSON.stringify(write.track) : null,
        position: Number(last?.max ?? 0) + 1,
        created_at: now,
        updated_at: now,
      })
      .execute();
    return id;
  }

  async replace(routeId: string, write: RouteWrite): Promise<void> {
    await this.db
      .updateTable('routes')
      .set({
        name: write.name,
        record: JSON.stringify(write.record),
        ...(write.track !== undefined && { track: write.track === null ? null : JSON.stringify(write.track) }),
        updated_at: this.nextUpdatedAt(),
      })
      .where('id', '=', routeId)
      .execute();
  }

  /** Removes the row; its links to spots and places go with it (foreign keys cascade). */
  async delete(routeId: string): Promise<void> {
    await this.db.deleteFrom('routes').where('id', '=', routeId).execute();
  }

  /** The spots along a route, replaced whole, in the order given. */
  async setSpots(routeId: string, spotIds: readonly string[]): Promise<void> {
    await this.db.deleteFrom('route_spots').where('route_id', '=', routeId).execute();
    if (spotIds.length > 0) {
      await this.db
        .insertInto('route_spots')
        .values(spotIds.map((spotId, i) => ({ route_id: routeId, spot_id: spotId, position: i + 1 })))
        .execute();
    }
    await this.touch([routeId]);
  }

  /** The places on a route, replaced whole; rows keep the list's position for equal orders. */
  async setFacilities(
    routeId: string,
    facilities: ReadonlyArray<{ facilityId: string; order: number }>,
  ): Promise<void> {
    await this.db.deleteFrom('route_facilities').where('route_id', '=', routeId).execute();
    if (facilities.length > 0) {
      await this.db
        .insertInto('route_facilities')
        .values(
          facilities.map((f, i) => ({
            route_id: routeId,
            facility_id: f.facilityId,
            order_key: f.order,
            position: i + 1,
          })),
        )
        .execute();
    }
    await this.touch([routeId]);
  }

  /** The routes and hikes a spot lies on, in the order they were made. */
  async routeIdsOfSpot(spotId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('route_spots')
      .innerJoin('routes', 'routes.id', 'route_spots.route_id')
      .select('routes.id')
      .where('route_spots.spot_id', '=', spotId)
      .orderBy('routes.position')
      .execute();
    return rows.map((r) => r.id);
  }

  /**
   * Makes the spot lie on exactly these routes: it leaves the others, keeps its place on those it
   * was on, and joins the new ones at their end.
   */
  async setSpotRoutes(spotId: string, routeIds: readonly string[]): Promise<void> {
    const current = new Set(await this.routeIdsOfSpot(spotId));
    const wanted = new Set(routeIds);
    const leaving = [...current].filter((id) => !wanted.has(id));
    const joining = routeIds.filter((id) => !current.has(id));
    if (leaving.length > 0) {
      await this.db.deleteFrom('route_spots').where('spot_id', '=', spotId).where('route_id', 'in', leaving).execute();
    }
    if (joining.length > 0) {
      const ends = await this.db
        .selectFrom('route_spots')
        .select((eb) => ['route_id', eb.fn.max('position').as('max')])
        .where('route_id', 'in', joining)
        .groupBy('route_id')
        .execute();
      const endOf = new Map(ends.map((r) => [r.route_id as string, Number(r.max)]));
      await this.db
        .insertInto('route_spots')
        .values(joining.map((id) => ({ route_id: id, spot_id: spotId, position: (endOf.get(id) ?? 0) + 1 })))
        .execute();
    }
    await this.touch([...leaving, ...joining]);
  }

  private async touch(routeIds: readonly string[]): Promise<void> {
    if (routeIds.length === 0) return;
    await this.db.updateTable('routes').set({ updated_at: this.nextUpdatedAt() }).where('id', 'in', routeIds).execute();
  }

  private async withLinks(
    rows: readonly RowWithoutTrack[],
    { includeTrack }: { includeTrack: boolean },
  ): Promise<StoredRoute[]> {
    const ids = rows.map((r) => r.id);
    const [spotKeys, facilities] = await Promise.all([this.spotKeysOf(ids), this.facilitiesOf(ids)]);
    return rows.map((row) => ({
      id: row.id,
      guideId: row.guide_id,
      kind: row.kind,
      name: row.name,
      record: JSON.parse(row.record) as Record<string, unknown>,
      ...(includeTrack && { track: row.track ? (JSON.parse(row.track) as HikeLine) : null }),
      spotKeys: spotKeys.get(row.id) ?? [],
      facilities: facilities.get(row.id) ?? [],
      createdAt: Number(row.created_at),
      updatedAt: Number(row.updated_at),
    }));
  }

  private async spotKeysOf(routeIds: readonly string[]): Promise<Map<string, string[]>> {
    if (routeIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('route_spots')
      .innerJoin('spots', 'spots.id', 'route_spots.spot_id')
      .select(['route_spots.route_id', 'spots.spot_key'])
      .where('route_spots.route_id', 'in', routeIds)
      .orderBy('route_spots.position')
      .execute();
    return groupedBy(
      routeIds,
      rows,
      (row) => row.route_id,
      (row) => row.spot_key,
    );
  }

  private async facilitiesOf(
    routeIds: readonly string[],
  ): Promise<Map<string, Array<{ facilityId: string; order: number }>>> {
    if (routeIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('route_facilities')
      .select(['route_id', 'facility_id', 'order_key'])
      .where('route_id', 'in', routeIds)
      .orderBy('order_key')
      .orderBy('position')
      .execute();
    return groupedBy(
      routeIds,
      rows,
      (row) => row.route_id,
      (row) => ({ facilityId: row.facility_id, order: Number(row.order_key) }),
    );
  }
}
