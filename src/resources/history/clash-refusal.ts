import { ApiError } from '../../core/errors.ts';
import type { TableHistory } from '../../core/history.ts';

/** The columns that say whose a unique value is, not what it is: not named to the caller. */
const SCOPE_COLUMNS = new Set(['guide_id', 'creator_id']);

const camel = (column: string) => column.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

/**
 * The refusal of an undo or restore that would give a record a unique value (a spot key, a chapter
 * slug) another record of the guide took since: 409 stale_editor naming the field, the record and
 * the value. The write's transaction rolls back, so nothing of the undo stays.
 */
export function clashRefusal(
  table: string,
  key: Readonly<Record<string, unknown>>,
  values: Readonly<Record<string, unknown>>,
  columns: readonly string[],
  declared: TableHistory | undefined,
): ApiError {
  const kind = declared?.kind ?? table;
  const id = String(key[declared?.idColumn ?? 'id'] ?? Object.values(key)[0]);
  const named = columns.filter((c) => !SCOPE_COLUMNS.has(c));
  const field = camel(named[0] ?? columns[0] ?? 'id');
  const value = named.map((c) => values[c]).find((v) => v !== undefined && v !== null);
  const shown = value === undefined ? '' : ` ${JSON.stringify(value)}`;
  return new ApiError(
    'stale_editor',
    `${field}: ${kind} ${id} cannot get its ${field}${shown} back: another ${kind} of this guide holds it now ` +
      `(made or changed since). Change or delete that ${kind} first, then try again; nothing was changed.`,
    { details: { path: field, kind, id, ...(value !== undefined && { value }) } },
  );
}
