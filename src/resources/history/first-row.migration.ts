import { type Kysely, PostgresAdapter, sql } from 'kysely';
import { changesView } from './entries.migration.ts';

/**
 * The embedded store keeps what a change is (its guide, place, time, operation and author) on the
 * entry of the first row it touched, where it kept an entry of its own beside its rows
 * (docs/decisions/history.md, What a write pays): the trigger that records that row writes them
 * too, and a write closes its change without a statement. A change's entry is now the one that
 * names its guide; a change whose guide was not known when it touched its first row (a store used
 * directly) still gets an entry of its own at its close, as every change did before (entries
 * with an empty table), so both shapes stand in one file and nothing written before is rewritten.
 *
 * The views and their triggers find a change by `guide_id is not null`, not by the empty table.
 * PostgreSQL keeps its tables.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await db.transaction().execute(async (trx) => {
    for (const statement of [
      'drop trigger entries_change_removed',
      // Its triggers go with it.
      'drop view changes',
      ...changesView('guide_id is not null'),
    ]) {
      await sql.raw(statement).execute(trx);
    }
  });
}
