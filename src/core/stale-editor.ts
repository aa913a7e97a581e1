import { ApiError } from './errors.ts';

/** What a stale_editor answer tells the editor about the record it edits. */
export interface EditedRecord {
  /** What changed: `The chapter changed after your read…`. */
  name: string;
  /** The operation that reads it again. */
  readWith: string;
  /** How the merged change goes back; `send it` unless said otherwise. */
  resend?: string;
  /** How an updatedAt reads while there is no record yet (a draft never saved). */
  absent?: string;
}

/**
 * Optimistic concurrency for whole-record editors: 409 stale_editor when the record changed after
 * the updatedAt the editor read (null: there was none yet). An edit that sends no expectedUpdatedAt
 * is not checked. Callers read `updatedAt` after opening the guide, which queues the guide's
 * writers, so nothing commits between this check and the write.
 */
export function requireFresh(
  edited: EditedRecord,
  updatedAt: number | null,
  expectedUpdatedAt: number | null | undefined,
): void {
  if (expectedUpdatedAt === undefined || expectedUpdatedAt === updatedAt) return;
  throw new ApiError(
    'stale_editor',
    `The ${edited.name} changed after your read (updatedAt ${updatedAt ?? edited.absent ?? 'null'}, you sent ` +
      `${expectedUpdatedAt}). Read it again with ${edited.readWith}, merge your change into what is there now, and ` +
      `${edited.resend ?? 'send it'} with the new updatedAt.`,
  );
}
