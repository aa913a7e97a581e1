import { z } from 'zod';
import { type GuideList, guidePage, pageFields } from '../../core/guide-pages.ts';
import { defineOperation } from '../../core/operation.ts';
import { pageInputShape, pageOutputShape } from '../../core/paging.ts';
import { productIdSchema } from '../../shared/id-fields.ts';
import { type Change, changeIdSchema, changeSchema } from './change.schema.ts';
import type { ChangeFilters, ChangesStore, ListedChange } from './change.store.ts';
import { historyExamples } from './examples.ts';
import { undoableOutcome, undoChanges } from './undo.ts';

/** The first revision of the service that has the history (issue 29). */
export const SINCE_HISTORY = '2026-11-27';

/** Changes a page holds: a default page stays far under 64 KB, whatever the changes touched. */
const CHANGES_PAGE = { default: 50, max: 200 };

/** Changes one undo may name. */
const UNDO_MOST = 100;

function changesList(store: ChangesStore, filters: ChangeFilters): GuideList<ListedChange, Change> {
  return {
    scope: `changes record=${filters.recordId ?? ''} since=${filters.since ?? ''}`,
    variant: '',
    size: CHANGES_PAGE,
    read: (guideId, request) => store.page(guideId, filters, request),
    count: (guideId) => store.count(guideId, filters),
    sortKey: (listed) => [listed.row.seq],
    present: presentChange,
  };
}

/** Records a change entry names at most: the entry stays small whatever the change touched. */
const RECORDS_SHOWN = 10;

function presentChange({ row, by, outcome, inEffect }: ListedChange): Change {
  const change: Change = {
    changeId: row.id,
    at: row.at,
    operation: row.operation,
    by,
    records: outcome.records.slice(0, RECORDS_SHOWN),
    recordCount: outcome.records.length,
    summary: outcome.summary,
    undoable: inEffect && undoableOutcome(row.operation, outcome.deletes),
  };
  if (!inEffect && row.undone_by !== null) change.undoneBy = row.undone_by;
  return change;
}

export const listChanges = defineOperation({
  name: 'list_changes',
  title: 'History',
  method: 'GET',
  path: '/guides/{productId}/changes',
  scope: 'read',
  stability: 'beta',
  since: SINCE_HISTORY,
  example: historyExamples.list_changes,
  description: 'Changes to the guide, newest first: who, which records. Ids for undo_changes.',
  input: z.strictObject({
    productId: productIdSchema,
    recordId: z.string().min(1).max(100).optional().describe('Of one record'),
    since: z.number().int().min(0).optional().describe('Unix ms'),
    ...pageInputShape(CHANGES_PAGE),
  }),
  output: z.object({ productId: z.string(), changes: z.array(changeSchema), ...pageOutputShape }),
  handler({ productId, recordId, since, cursor, limit }, ctx) {
    return guidePage(
      ctx.stores,
      ctx.principal.creatorId,
      productId,
      changesList(ctx.stores.changes, { recordId, since }),
      { cursor, limit },
      (guideId, page) => ({ productId: guideId, changes: page.items, ...pageFields(page) }),
    );
  },
});

export const undoChangesOperation = defineOperation({
  name: 'undo_changes',
  title: 'Undo',
  method: 'POST',
  path: '/guides/{productId}/changes/undo',
  scope: 'write',
  stability: 'beta',
  since: SINCE_HISTORY,
  example: historyExamples.undo_changes,
  annotations: { idempotent: false },
  errors: ['stale_editor'],
  description:
    'Reverts changes at once (created records go); undo its changeId to redo. stale_editor: add the later ' +
    'changeIds named. Deletes are final.',
  input: z.strictObject({
    productId: productIdSchema,
    changeIds: z.array(changeIdSchema).min(1).max(UNDO_MOST),
  }),
  output: z.object({
    productId: z.string(),
    undone: z.array(z.string()),
    changeId: z.string(),
  }),
  async handler({ productId, changeIds }, ctx) {
    const guide = await ctx.guide(productId);
    const changeId = await undoChanges(ctx, guide.id, changeIds);
    return { productId: guide.id, undone: [...new Set(changeIds)], changeId };
  },
});

export const historyOperations = [listChanges, undoChangesOperation];
