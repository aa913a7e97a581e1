import { ApiError, refuse } from '../../core/errors.ts';
import type { OperationContext } from '../../core/operation.ts';
import { clearTradedValues, type RowPutBack, RowRemover } from '../history/index.ts';
import type { FoundRelease } from './release.store.ts';
import { imageOf } from './release-image.ts';
import {
  compareWithImage,
  keyColumnsOf,
  type RecordDifference,
  recordDifferences,
  restoredColumns,
  type TableDiff,
} from './working-image.ts';

/**
 * Makes the working copy hold what the release held, in the write's transaction, row by row with
 * the primitives undo uses (docs/decisions/history.md, Releases): first the rows the release did not
 * hold leave, children first, each record after what its delete clears (its references and what its
 * foreign keys would cascade to, done row by row so the history records them before it); then the
 * rows it held come back or get their values back, parents first. Each step leaves a state the
 * constraints accept, so the triggers record one change that an undo walks back exactly. Answers
 * how the working copy differed, record by record.
 */
export async function restoreRelease(
  ctx: OperationContext,
  guideId: string,
  release: FoundRelease,
): Promise<RecordDifference[]> {
  const image = await imageOf(ctx.stores, release.id);
  if (image === undefined) {
    throw refuse(
      'release',
      `release ${release.number} was published before releases kept the whole working copy, so it cannot be ` +
        'restored; get_release shows how it differs from the working copy.',
    );
  }
  const { workingCopy, changes } = ctx.stores;
  const tables = await workingCopy.tables();
  const before = await compareWithImage(workingCopy, guideId, tables, image);
  const differences = recordDifferences(before, changes.tables, { tables, image });
  const spotsLeaving = differences.filter((d) => d.kind === 'spot' && d.change === 'added').length;
  if (spotsLeaving > 0 && (await ctx.stores.guides.hasBuyers(guideId))) {
    throw new ApiError(
      'guide_sold',
      `Someone bought this guide, so its spots cannot be deleted, and restoring release ${release.number} would ` +
        `delete ${spotsLeaving} spot(s) added since. Go back by hand instead: get_release lists what differs; ` +
        'archive the spots added since with update_spot.',
    );
  }
  const remover = new RowRemover(ctx, tables);
  for (const diff of [...before].reverse()) {
    for (const row of diff.extra) await remover.remove(diff.table.name, keyColumnsOf(diff.table, row));
  }
  // Read again: what the removals cleared in other records is put back with the rest.
  const rows = (await compareWithImage(workingCopy, guideId, tables, image)).flatMap(rowsToPutBack);
  await clearTradedValues(changes, tables, rows);
  for (const { table, key, values } of rows) await changes.putBack(table, key, values);
  return differences;
}

function rowsToPutBack(diff: TableDiff): RowPutBack[] {
  return [...diff.missing, ...diff.changed].map((row) => ({
    table: diff.table.name,
    key: keyColumnsOf(diff.table, row),
    values: restoredColumns(diff.table, row),
  }));
}
