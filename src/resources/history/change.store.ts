import { type Kysely, type RawBuilder, sql } from 'kysely';
import { changeIdOf, changeIdRange, changeIdRangeOf, currentChange, type HistoryTables } from '../../core/history.ts';
import type { PageRequest } from '../../core/paging.ts';
import { ScopedStore, type StoreScope } from '../../core/stores.ts';
import { isSpliced, wholeValues } from '../../db/history-splices.ts';
import { type TrackedTable, trackedTables } from '../../db/history-triggers.ts';
import { ofShape } from '../../db/prepared.ts';
import type { Database } from '../../db/tables.ts';
import { uniqueClashColumns } from '../../db/unique-clash.ts';
import { type ChangeOutcome, outcomeOf } from './change.answer.ts';
import type { ChangeRowsTable, ChangesTable } from './change.tables.ts';
import { clashRefusal } from './clash-refusal.ts';

export interface ChangeFilters {
  recordId?: string | undefined;
  since?: number | undefined;
}

/** A change as list_changes reads it: its row, who wrote it, what it did and whether it stands. */
export interface ListedChange {
  row: ChangesTable;
  by: { kind: 'key' | 'assistant' | 'studio'; name: string };
  outcome: ChangeOutcome;
  inEffect: boolean;
}

type ChangeRow = Pick<ChangesTable, 'id' | 'seq' | 'operation' | 'undone_by'>;

/** Rows and keys as the history keeps them: plain JSON objects. */
type Values = Record<string, unknown>;

/**
 * The guide's history as written by the triggers and `invoke` (core/history.ts), read newest first,
 * and the row-level writes that put a change's before-images back.
 */
export class ChangesStore extends ScopedStore {
  /** What every resource says about its tables' history: what an undo asks before removing a record. */
  readonly tables: HistoryTables;

  constructor(scope: StoreScope, tables: HistoryTables) {
    super(scope);
    this.tables = tables;
  }

  private get anyDb(): Kysely<Record<string, Values>> {
    return this.db as unknown as Kysely<Record<string, Values>>;
  }

  async page(guideId: string, filters: ChangeFilters, request: PageRequest): Promise<ListedChange[]> {
    const after = request.after?.[0];
    let query = this.filtered(guideId, filters)
      .leftJoin('api_keys', 'api_keys.id', 'changes.by_id')
      .leftJoin('assistant_authorizations', 'assistant_authorizations.grant_id', 'changes.by_id')
      .selectAll('changes')
      .select(['api_keys.name as key_name', 'api_keys.hint as key_hint', 'assistant_authorizations.client_name'])
      .orderBy(this.guideOrder, 'desc')
      .limit(request.limit + 1);
    if (typeof after === 'number') {
      query = query.where('changes.seq', '<', after);
      if (this.dialect === 'sqlite') query = query.where('changes.id', '<', changeIdOf(guideId, after));
    }
    const rows = await query.execute();
    const outcomes = await this.outcomes(rows.map((r) => r.id));
    const effect = await this.inEffect(rows);
    return rows.map(({ key_name, key_hint, client_name, ...row }) => ({
      row: { ...row, seq: Number(row.seq), at: Number(row.at) },
      by: authorOf(row.by_id, key_name, key_hint, client_name),
      outcome: outcomes.get(row.id) ?? outcomeOf([], this.tables),
      inEffect: effect.get(row.id) ?? true,
    }));
  }

  async count(guideId: string, filters: ChangeFilters): Promise<number> {
    const row = await this.filtered(guideId, filters)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * A guide's changes. The embedded store keeps no index on the guide: its changes are the range
   * of the history's key their ids take (core/history.ts, changeIdOf), in their order.
   */
  private ofGuide(db: Kysely<Database>, guideId: string) {
    const query = db.selectFrom('changes').where('changes.guide_id', '=', guideId);
    if (this.dialect !== 'sqlite') return query;
    const { from, to } = changeIdRange(guideId);
    return query.where('changes.id', '>=', from).where('changes.id', '<', to);
  }

  /** What a guide's changes are in order by: their place, or on the embedded store their ids (ofGuide). */
  private get guideOrder() {
    return this.dialect === 'sqlite' ? ('changes.id' as const) : ('changes.seq' as const);
  }

  private filtered(guideId: string, { recordId, since }: ChangeFilters) {
    let query = this.ofGuide(this.db, guideId);
    if (since !== undefined) query = query.where('changes.at', '>=', since);
    if (recordId !== undefined) {
      query = query.where((eb) =>
        eb.exists(
          eb
            .selectFrom('change_rows')
            .select('change_rows.record_id')
            .whereRef('change_rows.change_id', '=', 'changes.id')
            .where('change_rows.record_id', '=', recordId),
        ),
      );
    }
    return query;
  }

  /** What each change did, read from the rows it touched (one row a record and table). */
  async outcomes(ids: readonly string[]): Promise<Map<string, ChangeOutcome>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('change_rows')
      .select(['change_id', 'tbl', 'kind', 'record_id'])
      .select((eb) => [
        eb.fn.min('ord').as('first'),
        eb.fn.max(sql<number>`case when before is null then 1 else 0 end`).as('created'),
        eb.fn.max('gone').as('gone'),
      ])
      .where('change_id', 'in', ids)
      .groupBy(['change_id', 'tbl', 'kind', 'record_id'])
      .orderBy('first')
      .execute();
    const touched = rows.map((row) => ({ ...row, created: Number(row.created), gone: Number(row.gone) }));
    const byChange = Map.groupBy(touched, (row) => row.change_id);
    return new Map([...byChange].map(([id, records]) => [id, outcomeOf(records, this.tables)]));
  }

  /** The guide's changes by id; ids of no change of this guide are left out. */
  async byIds(guideId: string, ids: readonly string[]): Promise<ChangeRow[]> {
    const rows = await this.db
      .selectFrom('changes')
      .select(['id', 'seq', 'operation', 'undone_by'])
      .where('guide_id', '=', guideId)
      .where('id', 'in', ids)
      .execute();
    return rows.map((r) => ({ ...r, seq: Number(r.seq) }));
  }

  /**
   * Whether each change's effect stands: it was never undone, or the undo that took it back was
   * itself undone (a redo), and so on along the chain.
   */
  async inEffect(changes: readonly Pick<ChangeRow, 'id' | 'undone_by'>[]): Promise<Map<string, boolean>> {
    const undoneBy = new Map(changes.map((c) => [c.id, c.undone_by]));
    let missing = [...new Set(changes.map((c) => c.undone_by).filter((id): id is string => id !== null))];
    while (missing.length > 0) {
      const rows = await this.db.selectFrom('changes').select(['id', 'undone_by']).where('id', 'in', missing).execute();
      for (const row of rows) undoneBy.set(row.id, row.undone_by);
      missing = rows.map((r) => r.undone_by).filter((id): id is string => id !== null && !undoneBy.has(id));
    }
    const stands = (id: string, depth = 0): boolean => {
      const by = undoneBy.get(id);
      return by === null || by === undefined || depth > 1000 || !stands(by, depth + 1);
    };
    return new Map(changes.map((c) => [c.id, stands(c.id)]));
  }

  /** Later changes of the guide that touched a record one of these changes touched. */
  async laterTouching(guideId: string, changeIds: readonly string[]): Promise<ChangeRow[]> {
    const rows =
      this.dialect === 'sqlite'
        ? await this.laterTouchingEmbedded(guideId, changeIds)
        : await this.laterTouchingByPlace(changeIds);
    return rows.map((r) => ({ ...r, seq: Number(r.seq) }));
  }

  private laterTouchingByPlace(changeIds: readonly string[]) {
    return this.db
      .selectFrom('change_rows as mine')
      .innerJoin('changes as m', 'm.id', 'mine.change_id')
      .innerJoin('change_rows as theirs', (join) =>
        join.onRef('theirs.record_id', '=', 'mine.record_id').onRef('theirs.kind', '=', 'mine.kind'),
      )
      .innerJoin('changes as later', 'later.id', 'theirs.change_id')
      .select(['later.id', 'later.seq', 'later.operation', 'later.undone_by'])
      .distinct()
      .where('mine.change_id', 'in', changeIds)
      .whereRef('later.guide_id', '=', 'm.guide_id')
      .whereRef('later.seq', '>', 'm.seq')
      .where('later.id', 'not in', changeIds)
      .execute();
  }

  /**
   * On the embedded store a change is found by its id only through all its rows (its entry is the
   * one of them that names its guide: resources/history/first-row.migration.ts), so no row is
   * joined to its change: the records these changes touched, each with the first of them that
   * did, are matched against the rows after it in the guide's range (ids in their order), and only
   * the changes found are looked up, once each.
   */
  private laterTouchingEmbedded(guideId: string, changeIds: readonly string[]) {
    const mine = this.db
      .selectFrom('change_rows')
      .select(['kind', 'record_id'])
      .select((eb) => eb.fn.min('change_id').as('first'))
      .where('change_id', 'in', changeIds)
      .groupBy(['kind', 'record_id']);
    const theirs = this.db
      .selectFrom('change_rows as theirs')
      .innerJoin(mine.as('mine'), (join) =>
        join.onRef('mine.record_id', '=', 'theirs.record_id').onRef('mine.kind', '=', 'theirs.kind'),
      )
      .select('theirs.change_id')
      .where('theirs.change_id', '>', [...changeIds].sort()[0] ?? '')
      .where('theirs.change_id', '<', changeIdRange(guideId).to)
      .whereRef('theirs.change_id', '>', 'mine.first');
    return this.db
      .selectFrom('changes')
      .select(['id', 'seq', 'operation', 'undone_by'])
      .where('id', 'in', theirs)
      .where('id', 'not in', changeIds)
      .execute();
  }

  /** The changes an undo undid (while it stands). */
  async undoneBy(undoIds: readonly string[]): Promise<ChangeRow[]> {
    if (undoIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('changes')
      .select(['id', 'seq', 'operation', 'undone_by'])
      .where('undone_by', 'in', undoIds)
      .execute();
    return rows.map((r) => ({ ...r, seq: Number(r.seq) }));
  }

  /** The rows a change touched, last first: the order an undo puts them back in. */
  rowsOf(changeId: string): Promise<Pick<ChangeRowsTable, 'tbl' | 'row_key' | 'before'>[]> {
    return this.db
      .selectFrom('change_rows')
      .select(['tbl', 'row_key', 'before'])
      .where('change_id', '=', changeId)
      .orderBy('ord', 'desc')
      .execute();
  }

  /**
   * Removes the history entries written before `at` (HISTORY_KEPT_DAYS), with their rows, in one
   * transaction; answers how many went. An undo is always later than what it undid, so a change
   * kept never names an undo removed. A guide's entries are read in their order (seq), in which
   * their times go up: its old ones are those before its first recent one, found through the key
   * (guide, seq) the history is kept by. An index on the time would cost every write a page.
   */
  async dropBefore(at: number): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      let dropped = 0;
      // The guides whose first entry is old: one look each, through the key.
      const guides = await trx
        .selectFrom('guides')
        .select('guides.id')
        .where(
          (eb) =>
            eb
              .selectFrom('changes')
              .select('changes.at')
              .whereRef('changes.guide_id', '=', 'guides.id')
              .$if(this.dialect === 'sqlite', (q) => {
                const { from, to } = changeIdRangeOf('guides.id');
                return q.where('changes.id', '>=', from).where('changes.id', '<', to);
              })
              .orderBy(this.guideOrder)
              .limit(1),
          '<',
          at,
        )
        .execute();
      for (const { id: guideId } of guides) {
        const recent = await this.ofGuide(trx, guideId)
          .select('changes.seq')
          .where('changes.at', '>=', at)
          .orderBy(this.guideOrder)
          .limit(1)
          .executeTakeFirst();
        let old = this.ofGuide(trx, guideId);
        if (recent) old = old.where('changes.seq', '<', recent.seq);
        // Counted before: the embedded store deletes through a view, whose deletes count none.
        const { n } = await old.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
        await trx.deleteFrom('change_rows').where('change_id', 'in', old.select('changes.id')).execute();
        await trx.deleteFrom('changes').where('id', 'in', old.select('changes.id')).execute();
        dropped += Number(n);
      }
      return dropped;
    });
  }

  /** The change this write is recorded under. */
  current(): Promise<string> {
    return currentChange(this.db, this.dialect);
  }

  async markUndone(ids: readonly string[], by: string): Promise<void> {
    await this.db.updateTable('changes').set({ undone_by: by }).where('id', 'in', ids).execute();
  }

  async readRow(table: string, key: Values): Promise<Values | undefined> {
    const { rows } = await this.byShape<Values>(
      ['read', table, Object.keys(key)],
      () => sql`select * from ${sql.table(table)} where ${whereKey(key)}`,
      Object.values(key),
    );
    return rows[0];
  }

  /** The rows of a table whose column holds this value: what a foreign key's action would reach. */
  async rowsWhere(table: string, column: string, value: unknown): Promise<Values[]> {
    const { rows } = await this.byShape<Values>(
      ['where', table, column],
      () => sql`select * from ${sql.table(table)} where ${sql.ref(column)} = ${value}`,
      [value],
    );
    return rows;
  }

  /** The tables the history tracks now, with their keys and foreign keys (read from the schema). */
  trackedTables(): Promise<TrackedTable[]> {
    return trackedTables(this.db, this.dialect, this.tables);
  }

  async deleteRow(table: string, key: Values): Promise<void> {
    await this.byShape(
      ['delete', table, Object.keys(key)],
      () => sql`delete from ${sql.table(table)} where ${whereKey(key)}`,
      Object.values(key),
    );
  }

  /**
   * Puts a row back as it was: updated where it stands, inserted where it went. A unique value
   * another row holds now refuses it (clashRefusal).
   */
  async putBack(table: string, key: Values, image: Values): Promise<void> {
    // Spliced values are made whole against the row as the change left it (db/history-splices.ts).
    const before = Object.values(image).some(isSpliced)
      ? wholeValues(image, await this.readRow(table, key), `${table} ${JSON.stringify(key)}`)
      : image;
    try {
      await this.writeBack(table, key, before);
    } catch (err) {
      const columns = uniqueClashColumns(err);
      if (columns === undefined) throw err;
      const declared = this.tables[table];
      throw clashRefusal(table, key, before, columns, declared === 'untracked' ? undefined : declared);
    }
  }

  /** Sets a column of a standing row to null unless it holds this value already. */
  async clearUnless(table: string, key: Values, column: string, value: unknown): Promise<void> {
    await this.byShape(
      ['clear', table, Object.keys(key), column],
      () => sql`update ${sql.table(table)} set ${sql.ref(column)} = null
        where ${whereKey(key)} and ${sql.ref(column)} <> ${value}`,
      [...Object.values(key), value],
    );
  }

  private async writeBack(table: string, key: Values, before: Values): Promise<void> {
    const columns = Object.keys(before).filter((c) => !(c in key));
    if (columns.length > 0) {
      const updated = await this.byShape(['update', table, columns, Object.keys(key)], () => {
        const assignments = sql.join(columns.map((c) => sql`${sql.ref(c)} = ${before[c]}`));
        return sql`update ${sql.table(table)} set ${assignments} where ${whereKey(key)}`;
      }, [...columns.map((c) => before[c]), ...Object.values(key)]);
      if (Number(updated.numAffectedRows ?? 0) > 0) return;
    } else if (await this.readRow(table, key)) {
      return;
    }
    const all = Object.keys(before);
    await this.byShape(
      ['insert', table, all],
      () => sql`insert into ${sql.table(table)} (${sql.join(all.map((c) => sql.ref(c)))})
        values (${sql.join(all.map((c) => before[c]))})`,
      all.map((c) => before[c]),
    );
  }

  /**
   * A row statement compiled once for its shape (its kind, table and the columns it names, in
   * order) and run with these values, in the order the statement names them (db/prepared.ts).
   */
  private byShape<Row = unknown>(shape: unknown[], statement: () => RawBuilder<unknown>, values: unknown[]) {
    return ofShape<Row, Record<string, Values>>(
      this.anyDb,
      JSON.stringify(shape),
      () => statement().compile(this.anyDb),
      values,
    );
  }
}

function whereKey(key: Values): RawBuilder<unknown> {
  return sql.join(
    Object.entries(key).map(([column, value]) => sql`${sql.ref(column)} = ${value}`),
    sql` and `,
  );
}

/** Who wrote a change, as a creator knows it: the key's name, or the connected assistant's. */
export function authorOf(
  byId: string | null,
  keyName: string | null,
  keyHint: string | null,
  clientName: string | null,
): ListedChange['by'] {
  if (byId === null) return { kind: 'studio', name: 'the studio' };
  if (clientName !== null) return { kind: 'assistant', name: clientName };
  if (keyHint !== null) return { kind: 'key', name: keyName ?? `key ending ${keyHint}` };
  return { kind: byId.startsWith('key_') ? 'key' : 'assistant', name: 'no longer connected' };
}
