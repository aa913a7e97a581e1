import { type Kysely, PostgresAdapter, sql } from 'kysely';
import { changeIdOf } from '../../core/history.ts';

/**
 * The embedded store finds a guide's changes by their ids, not by an index on the guide
 * (docs/decisions/history.md, What a write pays). A change's id is now its guide's id and its place
 * in the guide's history (core/history.ts, changeIdOf), so the guide's changes are one range of the
 * entries' key, in their order, and the partial index `changes_by_guide`, a page of every commit,
 * goes. The changes kept before are renamed so (their rows and the undone marks naming them with
 * them), and each guide's revision, which numbers its changes from now on, is brought past the
 * places they hold. Ids listed before this migration no longer name a change.
 * PostgreSQL keeps its ids and its index: a heap appends without splitting, and its index costs
 * a write less than a page (docs/decisions/history.md).
 */
/** Two parameters a change, under SQLite's 32,766 a statement. */
const RENAMED_A_STATEMENT = 5000;

export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await db.transaction().execute(async (trx) => {
    const { rows: changes } = await sql<{ id: string; guide_id: string; seq: number | bigint }>`
      select change_id as id, guide_id, seq from history_entries where tbl = ''`.execute(trx);
    await sql`create temp table renamed_changes (old text primary key, new text not null) without rowid`.execute(trx);
    // Many changes a statement: an upgrade of a long history runs a few statements, not one a change.
    for (let at = 0; at < changes.length; at += RENAMED_A_STATEMENT) {
      const names = changes
        .slice(at, at + RENAMED_A_STATEMENT)
        .map(({ id, guide_id, seq }) => sql`(${id}, ${changeIdOf(guide_id, Number(seq))})`);
      await sql`insert into temp.renamed_changes (old, new) values ${sql.join(names)}`.execute(trx);
    }
    // New ids hold a '.', which no old one does: no new id meets an old one while they move.
    await sql`
      update history_entries set change_id = r.new from temp.renamed_changes r
      where history_entries.change_id = r.old`.execute(trx);
    await sql`
      update history_entries set undone_by = r.new from temp.renamed_changes r
      where history_entries.undone_by = r.old`.execute(trx);
    await sql`drop table temp.renamed_changes`.execute(trx);
    await sql`
      update guides set revision = p.last from (
        select guide_id, max(seq) as last from history_entries where tbl = '' group by guide_id
      ) p
      where guides.id = p.guide_id and guides.revision < p.last`.execute(trx);
    await sql`drop index changes_by_guide`.execute(trx);
  });
}
