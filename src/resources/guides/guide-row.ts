import type { ExpressionBuilder, Kysely, UpdateObject } from 'kysely';
import type { Database } from '../../db/tables.ts';

type GuideChanges = (eb: ExpressionBuilder<Database, 'guides'>) => UpdateObject<Database, 'guides'>;

/**
 * Every update of a guide row, by any resource or the admin command line, goes through here: it
 * moves the guide's revision, which cached views are keyed by, so no writer can forget to.
 */
export function updateGuideRow(db: Kysely<Database>, guideIds: string | readonly string[], changes: GuideChanges) {
  const update = db.updateTable('guides').set((eb) => ({ ...changes(eb), revision: eb('revision', '+', 1) }));
  return typeof guideIds === 'string' ? update.where('id', '=', guideIds) : update.where('id', 'in', guideIds);
}
