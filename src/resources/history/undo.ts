import { ApiError, notFound, refuse } from '../../core/errors.ts';
import type { OperationContext } from '../../core/operation.ts';
import type { ChangesStore } from './change.store.ts';
import { RowRemover } from './row-remover.ts';
import { clearTradedValues } from './traded-values.ts';

/** The name undo changes carry in the history: undoing one is a redo. */
export const UNDO_OPERATION = 'undo_changes';

/**
 * Writes whose deletions an undo may take back: they delete only what they themselves brought or
 * what a release did not hold, never a record the creator deleted. restore_release runs as one
 * write, so it is one change, and undoing it gives back the working copy it replaced.
 */
export const REVERSIBLE_DELETES: ReadonlySet<string> = new Set([UNDO_OPERATION, 'restore_release']);

/** Whether a change may be undone as far as what it did goes (it must also still be in effect). */
export function undoableOutcome(operation: string, deletes: boolean): boolean {
  return !deletes || REVERSIBLE_DELETES.has(operation);
}

type Checked = Awaited<ReturnType<ChangesStore['byIds']>>[number];

/**
 * Undoes changes of one guide in the write's transaction, newest first, each row put back from its
 * before-image in the reverse of the order the change touched them (docs/decisions/history.md).
 * The triggers record what this writes as the undo's own change, which undoing again reverses.
 * Returns the undo's change id.
 */
export async function undoChanges(
  ctx: OperationContext,
  guideId: string,
  changeIds: readonly string[],
): Promise<string> {
  const store = ctx.stores.changes;
  const changes = await requireUndoable(store, guideId, changeIds);
  await requireNothingLaterOnTheirRecords(store, guideId, changes);
  const tables = await store.trackedTables();
  const remover = new RowRemover(ctx, tables);
  const rows: { table: string; key: Record<string, unknown>; values: Record<string, unknown> | null }[] = [];
  for (const change of [...changes].sort((a, b) => b.seq - a.seq)) {
    for (const row of await store.rowsOf(change.id)) {
      const values = row.before === null ? null : (JSON.parse(row.before) as Record<string, unknown>);
      rows.push({ table: row.tbl, key: JSON.parse(row.row_key) as Record<string, unknown>, values });
    }
  }
  await clearTradedValues(
    store,
    tables,
    rows.flatMap((r) => (r.values === null ? [] : [{ ...r, values: r.values }])),
  );
  for (const { table, key, values } of rows) {
    if (values !== null) await store.putBack(table, key, values);
    // Created by the change: it goes, and what points at it goes as its delete would take it.
    else await remover.remove(table, key);
  }
  const undo = await store.current();
  await store.markUndone(
    changes.map((c) => c.id),
    undo,
  );
  return undo;
}

/** The changes named, each of this guide, still in effect and not a deletion; else the refusal. */
async function requireUndoable(store: ChangesStore, guideId: string, changeIds: readonly string[]): Promise<Checked[]> {
  const ids = [...new Set(changeIds)];
  const changes = await store.byIds(guideId, ids);
  const found = new Set(changes.map((c) => c.id));
  const missing = ids.find((id) => !found.has(id));
  if (missing !== undefined) throw notFound('change', missing);
  const effect = await store.inEffect(changes);
  const outcomes = await store.outcomes(ids);
  for (const change of changes) {
    if (!effect.get(change.id)) {
      throw refuse(
        'changeIds',
        `change ${change.id} is undone already (by ${change.undone_by}); undo ${change.undone_by} to bring it back.`,
      );
    }
    if (!undoableOutcome(change.operation, outcomes.get(change.id)?.deletes ?? false)) {
      throw refuse(
        'changeIds',
        `change ${change.id} (${change.operation}) deleted records, and deleting is permanent: it cannot be undone. ` +
          'Restoring a release brings back what that release held.',
      );
    }
  }
  return changes;
}

/**
 * 409 stale_editor when a later change that is not being undone touched a record these changes
 * touched: putting their before-images back would silently take that later change back too. A
 * later change and the undo that took it back cancel out, so neither counts.
 */
async function requireNothingLaterOnTheirRecords(
  store: ChangesStore,
  guideId: string,
  changes: readonly Checked[],
): Promise<void> {
  const earliest = Math.min(...changes.map((c) => c.seq));
  const later = await store.laterTouching(
    guideId,
    changes.map((c) => c.id),
  );
  const effect = await store.inEffect(later);
  const undos = later.filter((c) => c.operation === UNDO_OPERATION && effect.get(c.id));
  const undoneByThem = await store.undoneBy(undos.map((c) => c.id));
  const cancelled = new Set(
    undos
      .filter((undo) => undoneByThem.filter((c) => c.undone_by === undo.id).every((c) => c.seq > earliest))
      .map((undo) => undo.id),
  );
  const intervening = later
    .filter((c) => effect.get(c.id) && !cancelled.has(c.id))
    .sort((a, b) => a.seq - b.seq)
    .map((c) => c.id);
  if (intervening.length === 0) return;
  throw new ApiError(
    'stale_editor',
    `Later changes touched the same records: ${intervening.join(', ')}. Undoing without them would take them ` +
      'back too; read them with list_changes, then undo them together (add their ids to changeIds) or leave these.',
    { details: { changeIds: intervening } },
  );
}
