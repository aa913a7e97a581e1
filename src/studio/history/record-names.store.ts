import { type Kysely, sql } from 'kysely';
import { changeIdRange } from '../../core/history.ts';
import { ScopedStore } from '../../core/stores.ts';

/** A record as list_changes names it. */
export interface RecordRef {
  kind: string;
  id: string;
}

/** Where each kind of record keeps the name a creator knows it by. Kinds absent here show no name. */
const NAMED: Readonly<Record<string, { table: string; column: string }>> = {
  spot: { table: 'spots', column: 'name' },
  facility: { table: 'facilities', column: 'name' },
  area: { table: 'areas', column: 'name' },
  chapter: { table: 'chapters', column: 'name' },
  route: { table: 'routes', column: 'name' },
  itinerary: { table: 'itineraries', column: 'name' },
  property: { table: 'property_defs', column: 'label' },
};

type Rows = Record<string, Record<string, unknown>>;

export function refKey(record: RecordRef): string {
  return `${record.kind} ${record.id}`;
}

/**
 * The names of the records a page of changes touched, for the studio's History page: read from the
 * guide's records where they stand, else from the last state the history kept of them (a record
 * deleted, or created by a change since undone). Two queries a kind, whatever the page holds.
 */
export class RecordNamesStore extends ScopedStore {
  private get anyDb(): Kysely<Rows> {
    return this.db as unknown as Kysely<Rows>;
  }

  async namesOf(guideId: string, records: readonly RecordRef[]): Promise<Map<string, string>> {
    const names = new Map<string, string>();
    const byKind = Map.groupBy(records, (r) => r.kind);
    for (const [kind, refs] of byKind) {
      const named = NAMED[kind];
      if (!named) continue;
      const ids = [...new Set(refs.map((r) => r.id))];
      const standing = await this.anyDb
        .selectFrom(named.table)
        .select(['id', sql.ref<unknown>(named.column).as('name')])
        .where('guide_id', '=', guideId)
        .where('id', 'in', ids)
        .execute();
      for (const row of standing) names.set(refKey({ kind, id: String(row.id) }), String(row.name));
      const gone = ids.filter((id) => !names.has(refKey({ kind, id })));
      if (gone.length === 0) continue;
      const kept = await this.keptStates(guideId, named.table, gone);
      for (const row of kept) {
        const key = refKey({ kind, id: row.record_id });
        const name = (JSON.parse(row.before ?? '{}') as Record<string, unknown>)[named.column];
        if (!names.has(key) && typeof name === 'string') names.set(key, name);
      }
    }
    return names;
  }

  /**
   * The states the history kept of these records, newest first. The embedded store finds a guide's
   * history by its change ids' range, in their order, and joins no row to its change: there a
   * change is found by its id only through all its rows (resources/history/first-row.migration.ts).
   */
  private keptStates(guideId: string, table: string, ids: readonly string[]) {
    const rows = this.db
      .selectFrom('change_rows')
      .select(['change_rows.record_id', 'change_rows.before'])
      .where('change_rows.tbl', '=', table)
      .where('change_rows.record_id', 'in', ids)
      .where('change_rows.before', 'is not', null);
    if (this.dialect === 'sqlite') {
      const { from, to } = changeIdRange(guideId);
      return rows
        .where('change_rows.change_id', '>=', from)
        .where('change_rows.change_id', '<', to)
        .orderBy('change_rows.change_id', 'desc')
        .execute();
    }
    return rows
      .innerJoin('changes', 'changes.id', 'change_rows.change_id')
      .where('changes.guide_id', '=', guideId)
      .orderBy('changes.seq', 'desc')
      .execute();
  }
}
