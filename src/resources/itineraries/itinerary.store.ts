import type { Selectable } from 'kysely';
import { recordTable } from '../../core/guide-records.ts';
import { OrderedRecordsStore } from '../../shared/ordered-records.ts';
import type { Day, Itinerary, Season, travelModes } from './itinerary.schema.ts';
import type { ItinerariesTable } from './itinerary.tables.ts';
import { type StopTarget, withoutTarget } from './stop-targets.ts';

/** What an itinerary holds, as the writers see it: ids, order and times aside. */
export interface ItineraryState {
  name: string;
  description: string | null;
  body: string | null;
  coverMediaId: string | null;
  travelMode: (typeof travelModes)[number] | null;
  season: Season | null;
  startsAt: string | null;
  endsAt: string | null;
  days: Day[];
  archived: boolean;
}

export interface OwnedItinerary extends ItineraryState {
  id: string;
  guideId: string;
  order: number;
  createdAt: number;
  updatedAt: number;
}

/** A place as an overnight sees it: whether it is a stay (kind hut, or hut among its extra kinds). */
export interface PlaceFacts {
  name: string;
  kind: string;
  stay: boolean;
}

function toColumns(state: ItineraryState) {
  return {
    name: state.name,
    description: state.description,
    body: state.body,
    cover_media_id: state.coverMediaId,
    travel_mode: state.travelMode,
    season: state.season === null ? null : JSON.stringify(state.season),
    starts_at: state.startsAt,
    ends_at: state.endsAt,
    days: JSON.stringify(state.days),
    archived: state.archived ? 1 : 0,
  };
}

function toItinerary(row: Selectable<ItinerariesTable>): OwnedItinerary {
  return {
    id: row.id,
    guideId: row.guide_id,
    name: row.name,
    description: row.description,
    body: row.body,
    coverMediaId: row.cover_media_id,
    travelMode: row.travel_mode as ItineraryState['travelMode'],
    season: row.season === null ? null : (JSON.parse(row.season) as Season),
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    days: JSON.parse(row.days) as Day[],
    archived: Number(row.archived) === 1,
    order: Number(row.order_key),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

/** The record as read back, keys in the specification's order. */
export function publicItinerary(it: OwnedItinerary): Itinerary {
  return {
    itineraryId: it.id,
    productId: it.guideId,
    name: it.name,
    description: it.description,
    body: it.body,
    coverMediaId: it.coverMediaId,
    travelMode: it.travelMode,
    season: it.season,
    startsAt: it.startsAt,
    endsAt: it.endsAt,
    days: it.days,
    order: it.order,
    archived: it.archived,
    createdAt: it.createdAt,
    updatedAt: it.updatedAt,
  };
}

/** Itineraries of guides. All SQL about them lives here. */
export class ItinerariesStore extends OrderedRecordsStore<'itineraries', OwnedItinerary> {
  protected readonly records = recordTable('itineraries', 'itinerary', (rows) => rows.map(toItinerary));

  /** Appends the itinerary at the end of the guide's list. */
  async insert(guideId: string, state: ItineraryState): Promise<string> {
    return this.insertLast('it', guideId, toColumns(state));
  }

  async write(itineraryId: string, state: ItineraryState): Promise<void> {
    await this.writeColumns(itineraryId, toColumns(state));
  }

  async delete(itineraryId: string): Promise<void> {
    await this.db.deleteFrom('itineraries').where('id', '=', itineraryId).execute();
  }

  /** Which of these ids are places of the guide, and whether each is a stay. */
  async placeFacts(guideId: string, facilityIds: readonly string[]): Promise<Map<string, PlaceFacts>> {
    if (facilityIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('facilities')
      .select(['id', 'name', 'kind', 'record'])
      .where('guide_id', '=', guideId)
      .where('id', 'in', [...new Set(facilityIds)])
      .execute();
    return new Map(
      rows.map((r) => {
        const extra = (JSON.parse(r.record) as { extraKinds?: string[] }).extraKinds ?? [];
        return [r.id, { name: r.name, kind: r.kind, stay: r.kind === 'hut' || extra.includes('hut') }];
      }),
    );
  }

  /**
   * A spot, place, route or hike about to be deleted leaves every itinerary of its guide: its stops
   * go, an overnight at a deleted place keeps the place's name in words.
   */
  async removeTarget(guideId: string, target: StopTarget): Promise<void> {
    const rows = await this.db
      .selectFrom('itineraries')
      .select(['id', 'days'])
      .where('guide_id', '=', guideId)
      // The id (or key) appears as a JSON string wherever a day names it: a cheap first filter
      // (ids and keys hold no % or backslash; a _ matching any character only widens it).
      .where('days', 'like', `%"${target.id}"%`)
      .execute();
    for (const row of rows) {
      const days = JSON.parse(row.days) as Day[];
      const kept = withoutTarget(days, target);
      if (kept === days) continue;
      await this.db
        .updateTable('itineraries')
        .set({ days: JSON.stringify(kept), updated_at: this.nextUpdatedAt() })
        .where('id', '=', row.id)
        .execute();
    }
  }
}
