import { randomFillSync } from 'node:crypto';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { beginningWith } from '../db/begin-with.ts';
import { directReaders } from '../db/database.ts';
import { CHANGE_FIELDS, type NodeSqliteAdapter } from '../db/node-sqlite-adapter.ts';
import type { Dialect } from '../db/store-interface.ts';
import type { Database } from '../db/tables.ts';
import type { Principal } from './auth.ts';
import type { NamedByItsGuide } from './guide-access.ts';
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
  /**
   * Long text columns an update that changed a little of may keep as splices on the embedded store
   * (db/history-splices.ts). Only columns nothing reads from the history but an undo: a reader of
   * before-images (the sweep reads photos' files) needs them whole, and so does an undo a key's.
   */
  spliced?: readonly string[];
  /** What removing a created record asks first, when an undo takes it out: its references, as its delete does. */
  beforeRemoving?: (row: Readonly<Record<string, unknown>>, ctx: OperationContext) => Promise<void>;
}

/** A table's history as the resources declare it, or `untracked`: rows that are not guide content. */
export type HistoryTables = Readonly<Record<string, TableHistory | 'untracked'>>;

// Merged in here, not named in stores.ts: a table's history names the operation context, which names the stores.
declare module './stores.ts' {
  interface StoreContext {
    /** What every resource says about its tables' history, for the store that undoes changes. */
    history: HistoryTables;
  }
}

/** The setting (PostgreSQL) that tells the triggers which change the transaction's writes belong to. */
export const CURRENT_CHANGE_SETTING = 'creator_api.change';

/** What a change id is made of (newChangeId): safe to write into a statement's text. */
const CHANGE_ID = /^chg_[0-9a-z]{9}[\w-]{16}$/;

/** The change a write transaction records its rows under, from its start to its close. */
export interface OpenChange extends NamedByItsGuide {
  /** Its id: on the embedded store, the one its guide gives it once opened (changeIdOf). */
  readonly id: string;
  /**
   * Closes it before commit (see ClosingChange): at once, with no promise, on the embedded store;
   * on PostgreSQL, once its one statement is done.
   */
  close(closing: ClosingChange): Promise<void> | undefined;
}

/**
 * The embedded store's change ids: the guide's id, then the change's place in the guide's history
 * (base 36, fixed width). A guide's changes are one range of the history's key (changeIdRange), in
 * their order, so no index on the guide is written with each change (docs/decisions/history.md).
 * The place is the guide's revision as the write's stamp moved it: it rises with every write.
 */
export function changeIdOf(guideId: string, seq: number): string {
  return `${GUIDE_CHANGE_PREFIX}${guideId}${PLACE_FOLLOWS}${seq.toString(36).padStart(SEQ_WIDTH, '0')}`;
}

/** The range of the history's key holding a guide's changes on the embedded store: [from, to). */
export function changeIdRange(guideId: string): { from: string; to: string } {
  return {
    from: `${GUIDE_CHANGE_PREFIX}${guideId}${PLACE_FOLLOWS}`,
    to: `${GUIDE_CHANGE_PREFIX}${guideId}${PAST_PLACES}`,
  };
}

/** changeIdRange of the guide a column names, in a statement: each row's own guide's range. */
export function changeIdRangeOf(guideIdColumn: string): { from: RawBuilder<string>; to: RawBuilder<string> } {
  const guide = sql.ref(guideIdColumn);
  return {
    from: sql<string>`${GUIDE_CHANGE_PREFIX} || ${guide} || ${PLACE_FOLLOWS}`,
    to: sql<string>`${GUIDE_CHANGE_PREFIX} || ${guide} || ${PAST_PLACES}`,
  };
}

const GUIDE_CHANGE_PREFIX = 'chg_';
/** Between the guide and the place: it never appears in an id (they are base64url). */
const PLACE_FOLLOWS = '.';
/** The character after PLACE_FOLLOWS: the first id past every place of the guide. */
const PAST_PLACES = '/';
/** 36^8: more than two trillion revisions a guide. */
const SEQ_WIDTH = 8;

/**
 * Runs `work` in a write transaction with a change open (the write's `invoke`): the triggers record
 * rows under its id from its start to its end. On PostgreSQL the change is named in the begin's
 * own message (db/begin-with.ts): a round trip less a write. Given its author, the embedded store
 * writes what the change is on the entry of its first row (resources/history/first-row.migration.ts),
 * and its close writes nothing; without, its close keeps an entry of its own.
 */
export function inChange<T>(
  db: Kysely<Database>,
  dialect: Dialect,
  work: (trx: Kysely<Database>, change: OpenChange) => Promise<T>,
  author?: ChangeAuthor,
): Promise<T> {
  if (dialect === 'sqlite') {
    const id = provisionalChangeId();
    // The connection holds the open change for its triggers (history_change()): no statement names it.
    const connection = directReaders.get(db);
    if (!connection) throw new Error('history: changes are opened on the store as opened, not on a transaction');
    return db.transaction().execute((trx) => {
      connection.recordUnder(id);
      return work(trx, embeddedChange(connection, id, author));
    });
  }
  const id = newChangeId();
  if (!CHANGE_ID.test(id)) throw new Error(`history: change id ${id} is not one newChangeId makes`);
  return beginningWith(`select set_config('${CURRENT_CHANGE_SETTING}', '${id}', true)`, () =>
    db
      .transaction()
      .execute((trx) => work(trx, { id, opened: () => {}, close: (closing) => closeOnPostgres(trx, id, closing) })),
  );
}

/** Who makes a change and when, known as its write begins: what a change's entry says beside its guide and place. */
export interface ChangeAuthor {
  operation: string;
  principal: Principal;
  at: number;
}

/**
 * A change on the embedded store. It opens under a provisional id, and takes its guide's as soon as
 * the write opens the guide, before it touched a row (the usual order: a write finds its guide
 * first); then, with its author, it is described to the connection, whose triggers write it on its
 * first row's entry. A change that recorded rows first, or whose guide was never opened through
 * the write, is named at its close, its rows moved under that name and its own entry kept.
 */
function embeddedChange(
  connection: NodeSqliteAdapter,
  provisional: string,
  author: ChangeAuthor | undefined,
): OpenChange {
  let id = provisional;
  let place: Place | undefined;
  let described = false;
  return {
    get id() {
      return id;
    },
    opened(guide) {
      if (place !== undefined) return;
      place = { guideId: guide.id, seq: guide.revision };
      if (connection.changeRowsRecorded > 0) return;
      id = changeIdOf(guide.id, guide.revision);
      connection.renameChange(id);
      if (author === undefined) return;
      described = connection.describeChange({
        guide_id: guide.id,
        seq: guide.revision,
        at: author.at,
        operation: author.operation,
        by_id: writerOf(author),
      });
    },
    close(closing) {
      id = closeOnConnection(connection, id, place, closing, described);
      return undefined;
    },
  };
}

/** Where a change stands in its guide's history. */
interface Place {
  guideId: string;
  seq: number;
}

/**
 * PostgreSQL's change ids (the embedded store's are its guide's: changeIdOf). One begins with when
 * it was opened (base 36, fixed width: ids sort as they were made), then 96 random bits: each write
 * adds its entries at the end of the indexes on change ids, on the page the last write wrote, where
 * a random id would rewrite a page anywhere in them. The random bytes are drawn for 256 ids at a
 * time: a draw is a call into OpenSSL that costs more than the rest of the id.
 */
export function newChangeId(now = Date.now()): string {
  if (randomAt === randomPool.length) {
    randomFillSync(randomPool);
    randomAt = 0;
  }
  const random = randomPool.toString('base64url', randomAt, randomAt + 12);
  randomAt += 12;
  return `chg_${now.toString(36).padStart(9, '0')}${random}`;
}

const randomPool = Buffer.alloc(12 * 256);
let randomAt = randomPool.length;

/**
 * The id an embedded change records under until its guide names it (embeddedChange). It is never
 * kept, so unique among this process's changes is enough: a random part drawn once, then a count,
 * where a random draw a write cost more than the rest of opening its change. '~' is in no kept id.
 */
function provisionalChangeId(): string {
  provisionalCount += 1;
  return `${PROVISIONAL_PREFIX}${provisionalCount.toString(36)}`;
}

const PROVISIONAL_PREFIX = `chg_~${randomFillSync(Buffer.alloc(9)).toString('base64url')}.`;
let provisionalCount = 0;

/** The change this transaction's writes are recorded under (what an undo marks the undone ones with). */
export async function currentChange(db: Kysely<Database>, dialect: Dialect): Promise<string> {
  const { rows } =
    dialect === 'postgres'
      ? await sql<{ id: string }>`select current_setting(${CURRENT_CHANGE_SETTING}, true) as id`.execute(db)
      : await sql<{ id: string }>`select history_change() as id`.execute(db);
  const id = rows[0]?.id;
  if (!id) throw new Error('no change is open: history is written inside a write operation only');
  return id;
}

export interface ClosingChange extends ChangeAuthor {
  /** The guide the write opened; none: the change is not kept (nothing of an existing guide changed). */
  guideId: string | undefined;
}

/**
 * The embedded store closes a change on the connection itself, synchronously (the write holds the
 * connection): a change that recorded no row has nothing to keep or forget, and one that did is
 * kept in one statement, or its rows forgotten when its guide is not kept. What it did is read from
 * its rows when listed (change.answer.ts), so a write pays for no summary.
 */
function closeOnConnection(
  connection: NodeSqliteAdapter,
  recordedUnder: string,
  place: Place | undefined,
  closing: ClosingChange,
  described: boolean,
): string {
  if (connection.changeRowsRecorded === 0) return recordedUnder;
  const { guideId } = closing;
  const seq =
    guideId === undefined ? undefined : place?.guideId === guideId ? place.seq : nextPlace(connection, guideId);
  if (guideId === undefined || seq === undefined || connection.removedGuide(guideId)) {
    connection.runInTransaction(FORGET_ROWS, [recordedUnder]);
    return recordedUnder;
  }
  const id = changeIdOf(guideId, seq);
  // Its first row's entry already says what it is.
  if (described && id === recordedUnder) return id;
  if (id !== recordedUnder) {
    connection.runInTransaction(MOVE_ROWS, [id, recordedUnder]);
    connection.runInTransaction(MOVE_UNDONE_MARKS, [id, recordedUnder]);
    connection.renameChange(id);
  }
  const writer = writerOf(closing);
  const kept = connection.runInTransaction(SQLITE_KEEP_CHANGE, [
    id,
    guideId,
    closing.at,
    closing.operation,
    writer,
    seq,
  ]);
  // Rows the triggers kept for a change not kept would stand without it.
  if (kept === 0) connection.runInTransaction(FORGET_ROWS, [id]);
  return id;
}

/**
 * The place of a change whose write did not open its guide through the write's context (a store
 * used directly): the guide's revision moves, as a write's stamp moves it, so no later change
 * takes the same place. None when the guide is gone.
 */
function nextPlace(connection: NodeSqliteAdapter, guideId: string): number | undefined {
  const revision = connection.valueInTransaction(
    'update guides set revision = revision + 1 where id = ? returning revision',
    [guideId],
  );
  return revision === undefined ? undefined : Number(revision);
}

/** Who a change is kept under: the key or assistant grant that wrote it, none for the studio. */
function writerOf({ principal }: { principal: Principal }): string | null {
  return principal.studio ? null : principal.keyId;
}

/** The rows of a change not kept: no entry of its own stands yet (the embedded store's `history_entries`). */
const FORGET_ROWS = 'delete from history_entries where change_id = ?';

/**
 * A change's rows, and the marks of the changes it undid, moved under the name it closes with. Its
 * first row no longer says what the change is: its own entry will.
 */
const MOVE_ROWS = `update history_entries set change_id = ?1, ${CHANGE_FIELDS.map((f) => `${f} = null`).join(', ')}
  where change_id = ?2`;
const MOVE_UNDONE_MARKS = 'update history_entries set undone_by = ?1 where undone_by = ?2';

/** PostgreSQL's close: one round trip, the rows forgotten in the same statement when the change is not kept. */
async function closeOnPostgres(db: Kysely<Database>, id: string, closing: ClosingChange): Promise<void> {
  if (closing.guideId === undefined) {
    await sql`delete from change_rows where change_id = ${id}`.execute(db);
    return;
  }
  await sql`with kept as (${keepChange(id, closing.at, closing.operation, writerOf(closing), closing.guideId)} returning id)
    delete from change_rows where change_id = ${id} and not exists (select 1 from kept)`.execute(db);
}

/**
 * The embedded store's keepChange, for a change that recorded rows: its own entry, beside its rows
 * (resources/history/entries.migration.ts), as one row of values, at the place its id names. The
 * guard is the place: null when the guide is gone (its cascade took it within this write), and an
 * entry of a change without one is skipped (OR IGNORE, on its check). Nothing else can clash: the
 * write holds the store's one write lock, and no two writes stamp a guide at the same revision.
 */
const SQLITE_KEEP_CHANGE = `
  insert or ignore into history_entries (change_id, tbl, row_key, ord, guide_id, seq, at, operation, by_id)
  values (?1, '', '', 0, ?2, case when exists (select 1 from guides g where g.id = ?2) then ?6 end, ?3, ?4, ?5)`;

/** The statement that keeps a change under its guide, next in the guide's history, when it touched any row (PostgreSQL). */
function keepChange(id: string, at: number, operation: string, byId: string | null, guideId: string) {
  return sql`
    insert into changes (id, guide_id, seq, at, operation, by_id)
    select ${id}, g.id, coalesce((select max(c.seq) from changes c where c.guide_id = g.id), 0) + 1,
      ${at}, ${operation}, ${byId}
    from guides g
    where g.id = ${guideId} and exists (select 1 from change_rows r where r.change_id = ${id})`;
}
