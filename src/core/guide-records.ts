import type { Selectable } from 'kysely';
import type { Database } from '../db/tables.ts';
import { notFound } from './errors.ts';
import type { OperationContext } from './operation.ts';
import { ScopedStore } from './stores.ts';

/** Tables whose rows each belong to one guide (`guide_id`) and are named by an `id`. */
export type GuideChildTable = {
  [K in keyof Database]: Database[K] extends { id: string; guide_id: string } ? K : never;
}[keyof Database];

/** How a store's records are found for a caller: what `openOwned` needs of a store. */
export interface OwnedRecords<R> {
  /** The record's guide when this creator owns it, else not_found (the same for another creator's). */
  guideOfOwned(creatorId: string, id: string, noun?: string): Promise<string>;
  /** The record, or not_found when it is gone (deleted by a call that committed first). */
  require(id: string, noun?: string): Promise<R>;
}

/**
 * The caller's record with its guide opened first (locked and stamped, in a write), then read
 * again, so a write never builds on a row changed by a call that committed in between. Another
 * creator's id answers exactly as a missing one: `No <noun> with id "…".`
 */
export async function openOwned<R>(
  ctx: OperationContext,
  records: OwnedRecords<R>,
  id: string,
  noun?: string,
): Promise<R> {
  await ctx.guide(await records.guideOfOwned(ctx.principal.creatorId, id, noun));
  return records.require(id, noun);
}

/** Where a store's records live, what a missing one is called, and how its rows become records. */
export interface RecordTable<T extends GuideChildTable, R> {
  table: T;
  /** What a not_found calls a record: `No spot with id "…".` */
  noun: string;
  /** The records of rows read whole from the table, in the rows' order (with what other tables add). */
  read(rows: Selectable<Database[T]>[]): R[] | Promise<R[]>;
}

/**
 * A store's RecordTable, its types taken from the table:
 * `recordTable('spots', 'spot', (rows) => rows.map(toSpot))`.
 */
export function recordTable<T extends GuideChildTable, R>(
  table: T,
  noun: string,
  read: RecordTable<T, R>['read'],
): RecordTable<T, R> {
  return { table, noun, read };
}

/**
 * A store of records that each belong to one guide. The lookups every such store needs are written
 * here once; the store says only where its records live (`records`).
 */
export abstract class GuideRecordsStore<T extends GuideChildTable, R> extends ScopedStore implements OwnedRecords<R> {
  protected abstract readonly records: RecordTable<T, R>;

  private async recordOf(row: Selectable<Database[GuideChildTable]>): Promise<R> {
    const [record] = await this.records.read([row as Selectable<Database[T]>]);
    return record as R;
  }

  /** The row if the creator owns its guide; one statement, joined to the guide. */
  private ownedRow(creatorId: string, id: string) {
    const table: GuideChildTable = this.records.table;
    return this.db
      .selectFrom(table)
      .innerJoin('guides', 'guides.id', `${table}.guide_id`)
      .where(`${table}.id`, '=', id)
      .where('guides.creator_id', '=', creatorId);
  }

  async guideOfOwned(creatorId: string, id: string, noun = this.records.noun): Promise<string> {
    const table: GuideChildTable = this.records.table;
    const row = await this.ownedRow(creatorId, id).select(`${table}.guide_id`).executeTakeFirst();
    if (!row) throw notFound(noun, id);
    return row.guide_id;
  }

  /** The record if this creator owns it, else not_found alike for a missing one and another creator's. */
  async requireOwned(creatorId: string, id: string, noun = this.records.noun): Promise<R> {
    const table: GuideChildTable = this.records.table;
    const row = await this.ownedRow(creatorId, id).selectAll(table).executeTakeFirst();
    if (!row) throw notFound(noun, id);
    return this.recordOf(row);
  }

  async require(id: string, noun = this.records.noun): Promise<R> {
    const table: GuideChildTable = this.records.table;
    const row = await this.db.selectFrom(table).selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound(noun, id);
    return this.recordOf(row);
  }
}
