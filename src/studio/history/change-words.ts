import type { Change } from '../../resources/history/index.ts';
import { type RecordRef, refKey } from './record-names.store.ts';

/**
 * A session: changes by the same writer with no pause longer than this between two of them. An
 * assistant's session is a run of calls seconds to minutes apart; half an hour of quiet is a new
 * sitting (docs/decisions/studio.md).
 */
export const SESSION_GAP_MS = 30 * 60 * 1000;

/** Changes in a row (newest first) by one writer, none more than SESSION_GAP_MS after the next. */
export function sessionsOf(changes: readonly Change[]): Change[][] {
  const sessions: Change[][] = [];
  for (const change of changes) {
    const current = sessions.at(-1);
    const older = current?.at(-1);
    const sameWriter = older !== undefined && older.by.kind === change.by.kind && older.by.name === change.by.name;
    if (current && older && sameWriter && older.at - change.at <= SESSION_GAP_MS) current.push(change);
    else sessions.push([change]);
  }
  return sessions;
}

/** Operation names start with their verb; the page says it in the past tense. */
const VERBS: Readonly<Record<string, string>> = {
  archive: 'Archived',
  check: 'Checked',
  convert: 'Converted',
  create: 'Created',
  delete: 'Deleted',
  import: 'Imported',
  publish: 'Published',
  reorder: 'Reordered',
  restore: 'Restored',
  save: 'Saved',
  set: 'Set',
  undo: 'Undid',
  update: 'Updated',
  upload: 'Uploaded',
  upsert: 'Added or updated',
};

/** The words that name the records an operation's name holds ("media" is photos to a creator). */
const NOUNS: Readonly<Record<string, string>> = { media: 'photos', facility: 'place', facilities: 'places' };

/** What an operation did, in words: `update_spot` is "Updated spot", `undo_changes` "Undid changes". */
export function operationWords(operation: string): string {
  const [verb = '', ...rest] = operation.split('_');
  const object = rest.map((w) => NOUNS[w] ?? w).join(' ');
  const said = VERBS[verb] ?? verb.charAt(0).toUpperCase() + verb.slice(1);
  return object === '' ? said : `${said} ${object}`;
}

/** A kind of record as a creator calls it. */
const KINDS: Readonly<Record<string, string>> = { facility: 'place', salesPage: 'sales page', guide: 'guide details' };

export function kindWords(kind: string): string {
  return KINDS[kind] ?? kind;
}

/** Whether the operation's words already say the kind ("Updated spot", "Reordered properties"). */
function saysKind(said: string, kind: string): boolean {
  const plural = kind.endsWith('y') ? `${kind.slice(0, -1)}ies` : `${kind}s`;
  return said.split(' ').some((word) => word === kind || word === plural);
}

/** A record as the page names it: by name, with its kind unless the operation said it; else by kind and id. */
function recordWords(record: RecordRef, names: ReadonlyMap<string, string>, said: string): string {
  if (record.kind === 'guide' || record.kind === 'salesPage') return kindWords(record.kind);
  const name = names.get(refKey(record)) ?? record.id;
  const kind = kindWords(record.kind);
  return saysKind(said, kind) ? name : `${kind} ${name}`;
}

/**
 * A change in plain words: what the operation did and the records it touched, as "Updated spot
 * Lisbon Cathedral" or "Undid changes: spot Lisbon Cathedral, chapter Old town".
 */
export function changeWords(
  change: Pick<Change, 'operation' | 'records' | 'recordCount'>,
  names: ReadonlyMap<string, string>,
): string {
  const said = operationWords(change.operation);
  const records = change.records.map((r) => recordWords(r, names, said));
  const more = change.recordCount - change.records.length;
  if (more > 0) records.push(`${more} more`);
  if (records.length === 0) return said;
  const first = change.records[0] as RecordRef;
  return `${said}${saysKind(said, kindWords(first.kind)) ? ' ' : ': '}${records.join(', ')}`;
}

/** Why a change has no Undo button, in words; undefined when it can be undone. */
export function whyNotUndoable(change: Change): string | undefined {
  if (change.undoable) return undefined;
  if (change.undoneBy !== undefined) return 'Undone already (see the undo above, which you can undo to bring it back).';
  return 'It deleted records, and deleting is permanent: it cannot be undone. Restoring a release brings back what that release held.';
}
