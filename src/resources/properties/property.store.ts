import type { ExpressionBuilder, Selectable } from 'kysely';
import { GuideRecordsStore, recordTable } from '../../core/guide-records.ts';
import { newId } from '../../core/new-id.ts';
import { compareSortKeys } from '../../core/paging-sorted.ts';
import { groupedBy } from '../../db/grouped.ts';
import { jsonRowsOf, rowsOfJson } from '../../db/json-rows.ts';
import type { Dialect } from '../../db/store-interface.ts';
import type { Database } from '../../db/tables.ts';
import { GuideOrder } from '../../shared/guide-order.ts';
import type { Property, PropertyKind, PropertyOption } from './property.schema.ts';
import type { PropertyDefsTable } from './property.tables.ts';

export interface OwnedProperty extends Property {
  guideId: string;
}

export interface NewProperty {
  key: string;
  label: string;
  kind: PropertyKind;
  required: boolean;
  filterable: boolean;
  placeholder: string | null;
  numUnit: string | null;
  options: PropertyOption[];
}

export type PropertyPatch = Partial<
  Pick<Property, 'label' | 'required' | 'filterable' | 'placeholder' | 'numUnit' | 'options' | 'archived' | 'kind'>
> & { order?: number };

/** Custom spot property definitions. Every change bumps the guide's property schema version. */
export class PropertiesStore extends GuideRecordsStore<'property_defs', OwnedProperty> {
  protected readonly records = recordTable('property_defs', 'property', (rows) => rows.map(toProperty));
  /** Where the guide's property definitions stand in its list. */
  readonly order = new GuideOrder(this.db, this.clock, 'property_defs');

  async listForGuide(guideId: string): Promise<OwnedProperty[]> {
    return (await this.listForGuides([guideId])).get(guideId) ?? [];
  }

  /** The properties of several guides in one query, each guide's in order. */
  async listForGuides(guideIds: string[]): Promise<Map<string, OwnedProperty[]>> {
    if (guideIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('property_defs')
      .selectAll()
      .where('guide_id', 'in', guideIds)
      .orderBy('order_key')
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return groupedBy(guideIds, rows, (row) => row.guide_id, toProperty);
  }

  /** The properties of several guides as buyers' apps read them, each guide's in order. */
  async publicForGuides(guideIds: string[]): Promise<Map<string, Property[]>> {
    const owned = await this.listForGuides(guideIds);
    return new Map([...owned].map(([id, properties]) => [id, properties.map(publicProperty)]));
  }

  async keyTaken(guideId: string, key: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('property_defs')
      .select('id')
      .where('guide_id', '=', guideId)
      .where('key', '=', key)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The taken values starting with `stem` (see candidateStem). */
  async keysLike(guideId: string, stem: string): Promise<Set<string>> {
    const rows = await this.db
      .selectFrom('property_defs')
      .select('key')
      .where('guide_id', '=', guideId)
      .where('key', 'like', `${stem}%`)
      .execute();
    return new Set(rows.map((r) => r.key));
  }

  async create(guideId: string, input: NewProperty, schemaVersion: number): Promise<string> {
    const id = newId('prop');
    const now = this.clock.now();
    await this.db
      .insertInto('property_defs')
      .values({
        id,
        guide_id: guideId,
        key: input.key,
        label: input.label,
        kind: input.kind,
        order_key: await this.order.next(guideId),
        required: input.required ? 1 : 0,
        filterable: input.filterable ? 1 : 0,
        placeholder: input.placeholder,
        num_unit: input.numUnit,
        options: JSON.stringify(input.options),
        archived: 0,
        schema_version: schemaVersion,
        created_at: now,
        updated_at: now,
      })
      .execute();
    return id;
  }

  async update(propertyDefId: string, patch: PropertyPatch, schemaVersion: number): Promise<void> {
    const set: Partial<PropertyDefsTable> = { updated_at: this.clock.now(), schema_version: schemaVersion };
    if (patch.label !== undefined) set.label = patch.label;
    if (patch.kind !== undefined) set.kind = patch.kind;
    if (patch.required !== undefined) set.required = patch.required ? 1 : 0;
    if (patch.filterable !== undefined) set.filterable = patch.filterable ? 1 : 0;
    if (patch.placeholder !== undefined) set.placeholder = patch.placeholder;
    if (patch.numUnit !== undefined) set.num_unit = patch.numUnit;
    if (patch.options !== undefined) set.options = JSON.stringify(patch.options);
    if (patch.archived !== undefined) set.archived = patch.archived ? 1 : 0;
    if (patch.order !== undefined) set.order_key = patch.order;
    await this.db.updateTable('property_defs').set(set).where('id', '=', propertyDefId).execute();
  }
}

function toProperty(row: Selectable<PropertyDefsTable>): OwnedProperty {
  return {
    guideId: row.guide_id,
    propertyDefId: row.id,
    key: row.key,
    label: row.label,
    kind: row.kind,
    order: Number(row.order_key),
    required: row.required === 1,
    filterable: row.filterable === 1,
    placeholder: row.placeholder,
    numUnit: row.num_unit,
    options: JSON.parse(row.options) as PropertyOption[],
    archived: row.archived === 1,
    schemaVersion: row.schema_version,
  };
}

/** The public record: the guide id is the store's, not the caller's. */
export function publicProperty({ guideId: _guideId, ...property }: OwnedProperty): Property {
  return property;
}

const PROPERTY_COLUMNS = [
  'id',
  'guide_id',
  'key',
  'label',
  'kind',
  'order_key',
  'required',
  'filterable',
  'placeholder',
  'num_unit',
  'options',
  'archived',
  'schema_version',
  'created_at',
  'updated_at',
] as const satisfies ReadonlyArray<keyof PropertyDefsTable>;

/** The guide's properties as one JSON column of a query over `guides`; read back with propertiesFromJson. */
export function propertiesOfGuide(eb: ExpressionBuilder<Database, 'guides'>, dialect: Dialect) {
  return jsonRowsOf(
    dialect,
    eb.selectFrom('property_defs').select(PROPERTY_COLUMNS).whereRef('property_defs.guide_id', '=', 'guides.id'),
  );
}

/** The properties propertiesOfGuide read, in the guide's order, as buyers' apps read them (publicForGuides). */
export function propertiesFromJson(value: unknown): Property[] {
  return rowsOfJson<Selectable<PropertyDefsTable>>(value)
    .sort((a, b) =>
      compareSortKeys(
        [Number(a.order_key), Number(a.created_at), a.id],
        [Number(b.order_key), Number(b.created_at), b.id],
      ),
    )
    .map((row) => publicProperty(toProperty(row)));
}
