import type { Kysely } from 'kysely';
import type { Clock } from '../core/clock.ts';
import { nextUpdatedAt } from '../core/stores.ts';
import type { Database } from '../db/tables.ts';
import { type Move, placeAmong } from './order-key.ts';

/** Tables whose rows a creator orders within a guide by a fractional `order_key`. */
export type OrderedTable = 'chapters' | 'itineraries' | 'spots' | 'property_defs';

/**
 * The order of one kind of row within a guide: where a new row goes, and moves between two
 * neighbours that write one row (every key is spaced out again only when two neighbours left no
 * room between them). Each store that keeps such a list holds one of these for its table.
 */
export class GuideOrder {
  private readonly db: Kysely<Database>;
  private readonly clock: Clock;
  private readonly table: OrderedTable;

  constructor(db: Kysely<Database>, clock: Clock, table: OrderedTable) {
    this.db = db;
    this.clock = clock;
    this.table = table;
  }

  /** The key of a row appended at the end: a whole number past the last one. */
  async next(guideId: string): Promise<number> {
    const last = await this.db
      .selectFrom(this.table)
      .select((eb) => eb.fn.max('order_key').as('max'))
      .where('guide_id', '=', guideId)
      .executeTakeFirst();
    return Math.floor(Number(last?.max ?? 0)) + 1;
  }

  /** Every row's key in the guide, in order (ties by age, then id, as lists read them). */
  async keys(guideId: string): Promise<Array<{ id: string; order: number }>> {
    const rows = await this.db
      .selectFrom(this.table)
      .select(['id', 'order_key'])
      .where('guide_id', '=', guideId)
      .orderBy('order_key')
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map((r) => ({ id: r.id, order: Number(r.order_key) }));
  }

  /**
   * Moves `move.id` between the neighbours it names and returns its new key. The row's updated_at
   * moves on, as with every write of it; a renumber does not touch the others', since their
   * content did not change.
   */
  async move(guideId: string, move: Move): Promise<number> {
    const place = async () =>
      placeAmong(
        (await this.keys(guideId)).filter((row) => row.id !== move.id),
        move,
      );
    let order = await place();
    if (order === undefined) {
      for (const [i, { id }] of (await this.keys(guideId)).entries()) {
        await this.db
          .updateTable(this.table)
          .set({ order_key: i + 1 })
          .where('id', '=', id)
          .execute();
      }
      order = (await place()) as number;
    }
    await this.db
      .updateTable(this.table)
      .set({ order_key: order, updated_at: nextUpdatedAt(this.clock) })
      .where('id', '=', move.id)
      .execute();
    return order;
  }
}
