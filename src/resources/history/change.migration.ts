import { type Kysely, PostgresAdapter } from 'kysely';

/**
 * The history of changes: one row a change, one a touched row. The triggers that fill them are
 * made after every migration (src/db/history-triggers.ts), from the tables then standing.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('changes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('guide_id', 'text', (c) => c.notNull().references('guides.id').onDelete('cascade'))
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('operation', 'text', (c) => c.notNull())
    .addColumn('by_id', 'text')
    .addColumn('undone_by', 'text')
    .addUniqueConstraint('changes_guide_seq', ['guide_id', 'seq'])
    .execute();
  await db.schema
    .createTable('change_rows')
    .addColumn('id', 'integer', (c) =>
      // SQLite numbers an integer primary key itself.
      db.getExecutor().adapter instanceof PostgresAdapter
        ? c.primaryKey().generatedByDefaultAsIdentity()
        : c.primaryKey(),
    )
    .addColumn('change_id', 'text', (c) => c.notNull())
    .addColumn('tbl', 'text', (c) => c.notNull())
    .addColumn('row_key', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('record_id', 'text', (c) => c.notNull())
    .addColumn('before', 'text')
    .addColumn('gone', 'integer', (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint('change_rows_row', ['change_id', 'tbl', 'row_key'])
    // Deferred: the change's own row is written when it closes, after the rows it touched.
    .addForeignKeyConstraint('change_rows_change', ['change_id'], 'changes', ['id'], (fk) =>
      fk.onDelete('cascade').deferrable().initiallyDeferred(),
    )
    .execute();
  await db.schema.createIndex('change_rows_record').on('change_rows').columns(['record_id', 'change_id']).execute();
  await db.schema
    .createTable('change_current')
    .addColumn('id', 'text', (c) => c.notNull())
    .execute();
}
