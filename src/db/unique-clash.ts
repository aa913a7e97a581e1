/**
 * The columns of the unique constraint a failed statement ran into, or undefined when it failed for
 * another reason. PostgreSQL names them in the error's detail (`Key (guide_id, slug)=(…) already
 * exists.`, SQLSTATE 23505); SQLite in its message (`UNIQUE constraint failed: chapters.guide_id,
 * chapters.slug`, extended code SQLITE_CONSTRAINT_UNIQUE).
 */
export function uniqueClashColumns(err: unknown): string[] | undefined {
  if (!(err instanceof Error)) return undefined;
  const { code, errcode, detail } = err as { code?: unknown; errcode?: unknown; detail?: unknown };
  if (code === '23505') {
    const columns = typeof detail === 'string' ? /^Key \(([^)]*)\)=/.exec(detail)?.[1] : undefined;
    return columns === undefined ? [] : columns.split(',').map((c) => c.trim().replace(/^"|"$/g, ''));
  }
  if (code === 'ERR_SQLITE_ERROR' && errcode === SQLITE_CONSTRAINT_UNIQUE) {
    const columns = /UNIQUE constraint failed: (.*)$/.exec(err.message)?.[1];
    return columns === undefined ? [] : columns.split(',').map((c) => c.trim().replace(/^[^.]*\./, ''));
  }
  return undefined;
}

/** SQLITE_CONSTRAINT (19) extended with 8 << 8. */
const SQLITE_CONSTRAINT_UNIQUE = 2067;
