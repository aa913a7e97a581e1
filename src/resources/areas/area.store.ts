import type { ExpressionBuilder, Selectable } from 'kysely';
import { notFound } from '../../core/errors.ts';
import { newId } from '../../core/new-id.ts';
import { compareSortKeys } from '../../core/paging-sorted.ts';
import { ScopedStore } from '../../core/stores.ts';
import { groupedBy } from '../../db/grouped.ts';
import { jsonRowsOf, rowsOfJson } from '../../db/json-rows.ts';
import type { Dialect } from '../../db/store-interface.ts';
import type { Database } from '../../db/tables.ts';
import type { Area, AreaFields } from './area.schema.ts';
import type { AreasTable } from './area.tables.ts';

function toColumns(fields: AreaFields) {
  return {
    name: fields.name,
    kind: fields.kind ?? null,
    note: fields.note ?? null,
    season: fields.season ?? null,
    rules: JSON.stringify(fields.rules ?? []),
    fees: JSON.stringify(fields.fees ?? []),
    links: JSON.stringify(fields.links ?? []),
    status: fields.status === undefined ? null : JSON.stringify(fields.status),
    sources: JSON.stringify(fields.sources ?? []),
  };
}

/** An area as buyers' apps read it: optional fields appear only when set. */
function toArea(row: Selectable<AreasTable>): Area {
  const area: Area = {
    id: row.id,
    name: row.name,
    rules: JSON.parse(row.rules),
    fees: JSON.parse(row.fees),
    links: JSON.parse(row.links),
    sources: JSON.parse(row.sources),
  };
  if (row.kind !== null) area.kind = row.kind as Area['kind'];
  if (row.note !== null) area.note = row.note;
  if (row.season !== null) area.season = row.season;
  if (row.status !== null) area.status = JSON.parse(row.status);
  return area;
}

/** Areas of a guide. All SQL about areas lives here. */
export class AreasStore extends ScopedStore {
  async count(guideId: string): Promise<number> {
    const row = await this.db
      .selectFrom('areas')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('guide_id', '=', guideId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async exists(guideId: string, areaId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('areas')
      .select('id')
      .where('guide_id', '=', guideId)
      .where('id', '=', areaId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The area if it belongs to this guide; else the same 404 as for an id that does not exist. */
  async requireInGuide(guideId: string, areaId: string): Promise<void> {
    if (!(await this.exists(guideId, areaId))) throw notFound('area', areaId);
  }

  async insert(guideId: string, fields: AreaFields): Promise<string> {
    const id = newId('ar');
    const now = this.clock.now();
    const last = await this.db
      .selectFrom('areas')
      .select((eb) => eb.fn.max('position').as('max'))
      .where('guide_id', '=', guideId)
      .executeTakeFirst();
    await this.db
      .insertInto('areas')
      .values({
        id,
        guide_id: guideId,
        ...toColumns(fields),
        position: Number(last?.max ?? 0) + 1,
        created_at: now,
        updated_at: now,
      })
      .execute();
    return id;
  }

  async replace(areaId: string, fields: AreaFields): Promise<void> {
    await this.db
      .updateTable('areas')
      .set({ ...toColumns(fields), updated_at: this.clock.now() })
      .where('id', '=', areaId)
      .execute();
  }

  async delete(areaId: string): Promise<void> {
    await this.db.deleteFrom('areas').where('id', '=', areaId).execute();
  }

  async listForGuide(guideId: string): Promise<Area[]> {
    return (await this.listForGuides([guideId])).get(guideId) ?? [];
  }

  /** The areas of several guides in one query, each guide's in order. */
  async listForGuides(guideIds: string[]): Promise<Map<string, Area[]>> {
    if (guideIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('areas')
      .selectAll()
      .where('guide_id', 'in', guideIds)
      .orderBy('position')
      .orderBy('id')
      .execute();
    return groupedBy(guideIds, rows, (row) => row.guide_id, toArea);
  }
}

const AREA_COLUMNS = [
  'id',
  'guide_id',
  'name',
  'kind',
  'note',
  'season',
  'rules',
  'fees',
  'links',
  'status',
  'sources',
  'position',
  'created_at',
  'updated_at',
] as const satisfies ReadonlyArray<keyof AreasTable>;

/** The guide's areas as one JSON column of a query over `guides`; read back with areasFromJson. */
export function areasOfGuide(eb: ExpressionBuilder<Database, 'guides'>, dialect: Dialect) {
  return jsonRowsOf(dialect, eb.selectFrom('areas').select(AREA_COLUMNS).whereRef('areas.guide_id', '=', 'guides.id'));
}

/** The areas areasOfGuide read, in the guide's order (as listForGuides lists them). */
export function areasFromJson(value: unknown): Area[] {
  return rowsOfJson<Selectable<AreasTable>>(value)
    .sort((a, b) => compareSortKeys([a.position, a.id], [b.position, b.id]))
    .map(toArea);
}
