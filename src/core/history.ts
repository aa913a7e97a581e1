import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../db/database.ts';
import type { Database } from '../db/tables.ts';
import type { Principal } from './auth.ts';
import { newId } from './new-id.ts';
import type { OperationContext } from './operation.ts';

/**
 * The history of a guide's changes (docs/decisions/history.md). Database triggers on every table
 * that holds a guide's content keep, per change, each touched row's first state (its before-image:
 * null when the change created it); `invoke` opens a change at the start of every write's
 * transaction and closes it before commit, so an operation records its history without a line of
 * its own, and a failed write leaves none.
 */

/** What a resource may say about one of its tables' history, beside its references (`Resource.history`). */
export interface TableHistory {
  /** The kind of record its rows are or belong to, as list_changes names it. Default: the table's name. */
  kind?: string;
  /** The key column holding that record's id. Default: `id`, else the first key column. */
  idColumn?: string;
  /** Its rows are part of another record (members, links): adding or removing one changes that record. */
  part?: boolean;
  /** Columns every write moves (stamps, publication state): not compared, not recorded, never put back. */
  unrecorded?: readonly string[];
  /** What removing a created record asks first, when an undo takes it out: its references, as its delete does. */
  beforeRemoving?: (row: Readonly<Record<string, unknown>>, ctx: OperationContext) => Promise<void>;
}

/** A table's history as the resources declare it, or `untracked`: rows that are not guide content. */
export type HistoryTables = Readonly<Record<string, TableHistory | 'untracked'>>;

/** The setting (PostgreSQL) that tells the triggers which change the transaction's writes belong to. */
export const CURRENT_CHANGE_SETTING = 'creator_api.change';

/** One touched row as the triggers recorded it, without its before-image. */
interface TouchedRow {
  tbl: string;
  kind: string;
  record_id: string;
  created: number | boolean;
  gone: number;
}

/** Opens a change for this transaction's writes: the triggers record rows under its id from here on. */
export async function openChange(db: Kysely<Database>, dialect: Dialect): Promise<string> {
  const id = newId('chg');
  if (dialect === 'postgres') await sql`select set_config(${CURRENT_CHANGE_SETTING}, ${id}, true)`.execute(db);
  else await sql`insert into change_current (id) values (${id})`.execute(db);
  return id;
}

/** The change this transaction's writes are recorded under (what an undo marks the undone ones with). */
export async function currentChange(db: Kysely<Database>, dialect: Dialect): Promise<string> {
  const { rows } =
    dialect === 'postgres'
      ? await sql<{ id: string }>`select current_setting(${CURRENT_CHANGE_SETTING}, true) as id`.execute(db)
      : await sql<{ id: string }>`select id from change_current`.execute(db);
  const id = rows[0]?.id;
  if (!id) throw new Error('no change is open: history is written inside a write operation only');
  return id;
}

export interface ClosingChange {
  operation: string;
  principal: Principal;
  at: number;
  /** The guide the write opened; none: the change is not kept (nothing of an existing guide changed). */
  guideId: string | undefined;
}

/**
 * Closes the change before commit: kept with its guide, its order in the guide's history, its
 * summary and whether it can be undone when it touched any row; forgotten when it touched none.
 */
export async function closeChange(
  db: Kysely<Database>,
  dialect: Dialect,
  tables: HistoryTables,
  id: string,
  closing: ClosingChange,
): Promise<void> {
  if (dialect === 'sqlite') await sql`delete from change_current`.execute(db);
  const { rows } = await sql<TouchedRow>`
    select tbl, kind, record_id, before is null as created, gone from change_rows where change_id = ${id}`.execute(db);
  if (rows.length === 0) return;
  const guideStands =
    closing.guideId !== undefined &&
    (await db.selectFrom('guides').select('id').where('id', '=', closing.guideId).executeTakeFirst()) !== undefined;
  if (!guideStands) {
    await sql`delete from change_rows where change_id = ${id}`.execute(db);
    return;
  }
  const outcome = outcomeOf(rows, tables);
  await sql`
    insert into changes (id, guide_id, seq, at, operation, by_id, summary, deletes)
    select ${id}, ${closing.guideId}, coalesce(max(seq), 0) + 1, ${closing.at}, ${closing.operation},
      ${closing.principal.keyId}, ${outcome.summary}, ${outcome.deletes ? 1 : 0}
    from changes where guide_id = ${closing.guideId}`.execute(db);
}

/** What a change did to each record it touched, in words, and whether it deleted a record. */
function outcomeOf(rows: readonly TouchedRow[], tables: HistoryTables): { summary: string; deletes: boolean } {
  const done = new Map<string, { kind: string; what: 'created' | 'deleted' | 'changed' }>();
  for (const row of rows) {
    const declared = tables[row.tbl];
    const whole = !(declared !== 'untracked' && declared?.part);
    const key = `${row.kind} ${row.record_id}`;
    const what = !whole
      ? 'changed'
      : row.created && row.gone !== 1
        ? 'created'
        : row.gone === 1
          ? 'deleted'
          : 'changed';
    const before = done.get(key);
    // The record's own row says whether it came or went; a part of it only says it changed.
    if (!before || (before.what === 'changed' && whole)) done.set(key, { kind: row.kind, what });
  }
  const counts = new Map<string, number>();
  for (const { kind, what } of done.values()) counts.set(`${what} ${kind}`, (counts.get(`${what} ${kind}`) ?? 0) + 1);
  const summary = [...counts].map(([phrase, n]) => (n === 1 ? phrase : `${phrase} ×${n}`)).join(', ');
  const deletes = [...done.values()].some((d) => d.what === 'deleted');
  return { summary, deletes };
}
