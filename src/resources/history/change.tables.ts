import type { Generated } from 'kysely';

/** One change of a guide: one write operation's effect, kept in the guide's history. */
export interface ChangesTable {
  id: string;
  guide_id: string;
  /** Its place in the guide's history, from 1. */
  seq: number;
  at: number;
  operation: string;
  /** The key or the assistant's OAuth grant that wrote it (null: the studio): named when listed, and what groups a session. */
  by_id: string | null;
  /** The change that undid it, while that one stands. */
  undone_by: string | null;
}

/** A row one change touched, with the state it had before (null: the change created it). */
export interface ChangeRowsTable {
  change_id: string;
  tbl: string;
  /** JSON object of the row's primary key columns. */
  row_key: string;
  /** The row's place among its change's rows, in the order they were first touched; an undo puts them back in reverse. */
  ord: Generated<number>;
  kind: string;
  record_id: string;
  /** JSON of the row before the change, or null when the change created it. */
  before: string | null;
  /** 1 when the row no longer stood at the end of the change. */
  gone: number;
}
