import type { Insertable, Selectable, Updateable } from 'kysely';
import { type GuideChildTable, GuideRecordsStore } from '../core/guide-records.ts';
import { newId } from '../core/new-id.ts';
import type { PageRequest } from '../core/paging.ts';
import { keysetPage, nameContains } from '../db/keyset.ts';
import type { Database } from '../db/tables.ts';
import { GuideOrder, type OrderedTable } from './guide-order.ts';

/** The list's order: the order key, then creation, then the id, which is unique. */
const LIST_ORDER = ['order_key', 'created_at', 'id'] as const;

/** Tables of a guide's records that are named and ordered by hand. */
export type NamedListTable = {
  [K in OrderedTable]: K extends GuideChildTable ? (Database[K] extends { name: string } ? K : never) : never;
}[OrderedTable];

/** What a store writes of a record: every column but the ones the list keeps (ids, order, times). */
export type RecordColumns<T extends keyof Database> = Omit<
  Insertable<Database[T]>,
  'id' | 'guide_id' | 'order_key' | 'created_at' | 'updated_at'
>;

/**
 * A guide's named records that its creator orders by hand (chapters, itineraries): listed, paged by
 * name and counted in that order, appended at its end, written whole. The store says where they
 * live (`records`) and how a state becomes columns.
 */
export abstract class OrderedRecordsStore<T extends NamedListTable, R> extends GuideRecordsStore<T, R> {
  private guideOrder: GuideOrder | undefined;

  /** Where the guide's records stand in its list, and moves between them. */
  get order(): GuideOrder {
    this.guideOrder ??= new GuideOrder(this.db, this.clock, this.records.table);
    return this.guideOrder;
  }

  /** The rows of one guide, narrowed to those whose name holds `nameText` when given. */
  private inGuide(guideId: string, nameText?: string) {
    const table: NamedListTable = this.records.table;
    const rows = this.db.selectFrom(table).where('guide_id', '=', guideId);
    return nameText === undefined ? rows : rows.where(nameContains(this.dialect, 'name', nameText));
  }

  private async read(rows: Selectable<Database[NamedListTable]>[]): Promise<R[]> {
    return this.records.read(rows as Selectable<Database[T]>[]);
  }

  /** The guide's records in the list's order. */
  async list(guideId: string): Promise<R[]> {
    let query = this.inGuide(guideId).selectAll();
    for (const column of LIST_ORDER) query = query.orderBy(column);
    return this.read(await query.execute());
  }

  /** One page of the guide's records in the list's order, by keyset (one row more than the limit). */
  async page(guideId: string, nameText: string | undefined, request: PageRequest): Promise<R[]> {
    return this.read(await keysetPage(this.inGuide(guideId, nameText).selectAll(), LIST_ORDER, request).execute());
  }

  async count(guideId: string, nameText: string | undefined): Promise<number> {
    const row = await this.inGuide(guideId, nameText)
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Appends a record at the end of the guide's list; its id starts with `prefix`. */
  protected async insertLast(prefix: string, guideId: string, columns: RecordColumns<T>): Promise<string> {
    const table: NamedListTable = this.records.table;
    const id = newId(prefix);
    const now = this.clock.now();
    const order_key = await this.order.next(guideId);
    const row = { id, guide_id: guideId, ...columns, order_key, created_at: now, updated_at: now };
    await this.db
      .insertInto(table)
      .values(row as Insertable<Database[NamedListTable]>)
      .execute();
    return id;
  }

  /** Writes the record's columns; its updated_at moves on (see nextUpdatedAt). */
  protected async writeColumns(id: string, columns: Updateable<Database[T]>): Promise<void> {
    const table: NamedListTable = this.records.table;
    await this.db
      .updateTable(table)
      .set({ ...(columns as Updateable<Database[NamedListTable]>), updated_at: this.nextUpdatedAt() })
      .where('id', '=', id)
      .execute();
  }
}
