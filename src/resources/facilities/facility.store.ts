import type { Selectable } from 'kysely';
import { GuideRecordsStore, recordTable } from '../../core/guide-records.ts';
import { newId } from '../../core/new-id.ts';
import type { PageRequest } from '../../core/paging.ts';
import { groupedBy } from '../../db/grouped.ts';
import { keysetPage, nameContains } from '../../db/keyset.ts';
import { nameSortKey } from '../../shared/text.ts';
import type { PlaceState } from './facility.input.ts';
import type { Place } from './facility.schema.ts';
import type { FacilitiesTable } from './facility.tables.ts';

export interface OwnedPlace extends Place {
  guideId: string;
}

/** The columns the store filters on; the rest of the record travels as JSON. */
type RecordFields = Omit<PlaceState, 'kind' | 'type' | 'name' | 'lat' | 'lon' | 'insideId' | 'spotKeys'>;

let collator: Intl.Collator | undefined;

/** Names as people sort them; the collator (ICU's collation data) is made by the first sort, not at start. */
function compareNames(a: string, b: string): number {
  collator ??= new Intl.Collator('en', { sensitivity: 'base', numeric: true });
  return collator.compare(a, b);
}

function toColumns(state: PlaceState | OwnedPlace) {
  // An owned place read back carries its ids and times: they live in columns, not in the record.
  const { kind, type, name, lat, lon, insideId, spotKeys: _spotKeys, ...rest } = state;
  const {
    guideId: _g,
    facilityId: _f,
    createdAt: _c,
    updatedAt: _u,
    ...record
  } = rest as typeof rest & Partial<OwnedPlace>;
  const recordText = JSON.stringify(record satisfies RecordFields);
  return { kind, type, name, name_key: nameSortKey(name), lat, lon, inside_id: insideId, record: recordText };
}

function toPlace(row: Selectable<FacilitiesTable>, spotKeys: string[]): OwnedPlace {
  const record = JSON.parse(row.record) as RecordFields;
  return {
    guideId: row.guide_id,
    facilityId: row.id,
    kind: row.kind as Place['kind'],
    type: row.type,
    spotKeys,
    name: row.name,
    ...record,
    lat: row.lat === null ? null : Number(row.lat),
    lon: row.lon === null ? null : Number(row.lon),
    insideId: row.inside_id,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

export function publicPlace({ guideId: _guideId, ...place }: OwnedPlace): Place {
  // Key order as the record reads in the specification.
  const { facilityId, kind, type, spotKeys, name, ...rest } = place;
  return { facilityId, kind, type, spotKeys, name, ...rest };
}

const PLACE_ORDER = ['name_key', 'id'] as const;

/** A place as a page holds it, with its place in the order. */
export interface PlaceRow {
  place: OwnedPlace;
  sortKey: [string, string];
}

/** Places (facilities) and their links to spots. All SQL about places lives here. */
export class FacilitiesStore extends GuideRecordsStore<'facilities', OwnedPlace> {
  protected readonly records = recordTable('facilities', 'place', (rows) => this.withSpotKeys(rows));

  /** The guide's places, ordered by name as people sort names. */
  async listForGuide(guideId: string): Promise<OwnedPlace[]> {
    const rows = await this.db.selectFrom('facilities').selectAll().where('guide_id', '=', guideId).execute();
    return (await this.withSpotKeys(rows)).sort(
      (a, b) => compareNames(a.name, b.name) || a.facilityId.localeCompare(b.facilityId),
    );
  }

  private inGuide(guideId: string, nameText: string | undefined) {
    const query = this.db.selectFrom('facilities').where('guide_id', '=', guideId);
    return nameText === undefined ? query : query.where(nameContains(this.dialect, 'name', nameText));
  }

  /** One page of the guide's places by name as people sort names (nameSortKey), by keyset. */
  async page(guideId: string, nameText: string | undefined, request: PageRequest): Promise<PlaceRow[]> {
    const rows = await keysetPage(this.inGuide(guideId, nameText).selectAll(), PLACE_ORDER, request).execute();
    const keys = await this.spotKeysOf(rows.map((r) => r.id));
    return rows.map((row) => ({ place: toPlace(row, keys.get(row.id) ?? []), sortKey: [row.name_key, row.id] }));
  }

  async count(guideId: string, nameText: string | undefined): Promise<number> {
    const row = await this.inGuide(guideId, nameText)
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  private async withSpotKeys(rows: Selectable<FacilitiesTable>[]): Promise<OwnedPlace[]> {
    const keys = await this.spotKeysOf(rows.map((r) => r.id));
    return rows.map((row) => toPlace(row, keys.get(row.id) ?? []));
  }

  private async spotKeysOf(facilityIds: readonly string[]): Promise<Map<string, string[]>> {
    if (facilityIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('facility_spots')
      .innerJoin('spots', 'spots.id', 'facility_spots.spot_id')
      .select(['facility_spots.facility_id', 'spots.spot_key'])
      .where('facility_spots.facility_id', 'in', facilityIds)
      .orderBy('facility_spots.position')
      .execute();
    return groupedBy(
      facilityIds,
      rows,
      (row) => row.facility_id,
      (row) => row.spot_key,
    );
  }

  async parentOf(guideId: string, facilityId: string): Promise<{ insideId: string | null } | undefined> {
    const row = await this.db
      .selectFrom('facilities')
      .select('inside_id')
      .where('guide_id', '=', guideId)
      .where('id', '=', facilityId)
      .executeTakeFirst();
    return row && { insideId: row.inside_id };
  }

  async hasChildren(facilityId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('facilities')
      .select('id')
      .where('inside_id', '=', facilityId)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  async insert(guideId: string, state: PlaceState, spotIds: readonly string[]): Promise<string> {
    const id = newId('fac');
    const now = this.clock.now();
    await this.db
      .insertInto('facilities')
      .values({ id, guide_id: guideId, ...toColumns(state), created_at: now, updated_at: now })
      .execute();
    await this.linkSpots(id, spotIds);
    return id;
  }

  async replace(facilityId: string, state: PlaceState, spotIds?: readonly string[]): Promise<void> {
    await this.db
      .updateTable('facilities')
      .set({ ...toColumns(state), updated_at: this.clock.now() })
      .where('id', '=', facilityId)
      .execute();
    if (spotIds !== undefined) {
      await this.db.deleteFrom('facility_spots').where('facility_id', '=', facilityId).execute();
      await this.linkSpots(facilityId, spotIds);
    }
  }

  private async linkSpots(facilityId: string, spotIds: readonly string[]): Promise<void> {
    if (spotIds.length === 0) return;
    await this.db
      .insertInto('facility_spots')
      .values(spotIds.map((spotId, i) => ({ facility_id: facilityId, spot_id: spotId, position: i + 1 })))
      .execute();
  }

  /** Removes the place with its spot links; places inside it stay, no longer inside anything. */
  async delete(facilityId: string): Promise<void> {
    await this.db
      .updateTable('facilities')
      .set({ inside_id: null, updated_at: this.clock.now() })
      .where('inside_id', '=', facilityId)
      .execute();
    await this.db.deleteFrom('facility_spots').where('facility_id', '=', facilityId).execute();
    await this.db.deleteFrom('facilities').where('id', '=', facilityId).execute();
  }
}
