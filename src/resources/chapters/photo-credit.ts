import type { ChapterFields } from './chapter.schema.ts';
import type { ChapterState } from './chapter.store.ts';
import { filled } from './input-text.ts';

/** `name` at `path` (`intro.sections[0].photoCredit`), or alone for a top-level field. */
const fieldAt = (path: string, name: string) => (path === '' ? name : `${path}.${name}`);

/** The warning for a credit field sent without its photo: it is not kept, and says so. */
export function droppedWithoutPhoto(path: string, field: string, photo: string): string {
  return `${fieldAt(path, field)} was dropped: a credit is kept only with a photo (send ${photo} with it).`;
}

/**
 * A photo credit next to its photo: without a photo it is dropped with a warning (never kept
 * silently); a photo without one is accepted with a warning, since credits are never invented.
 */
export function creditFor(
  path: string,
  photo: string | undefined,
  credit: string | undefined,
  warn: (message: string) => void,
  names = { photo: 'photoStorageId', credit: 'photoCredit' },
): string | undefined {
  const given = filled(credit);
  if (photo === undefined) {
    if (given !== undefined) warn(droppedWithoutPhoto(path, names.credit, names.photo));
    return undefined;
  }
  if (given === undefined) {
    warn(
      `${fieldAt(path, names.photo)} has no ${names.credit}: ask the creator who took it (shown as "Photo: <name>").`,
    );
  }
  return given;
}

const CREDIT_FIELDS = ['coverCredit', 'coverCreditUrl', 'coverLicence'] as const;
const NAMES = { photo: 'coverStorageId', credit: 'coverCredit' };

/**
 * The cover's credit, link and licence after the fields sent (PATCH rules: sent fields change, ""
 * and null clear). They belong to one image: a new cover never inherits the old one's credit (that
 * would credit someone for a photo they may not have taken), and a cover that goes takes its credit
 * along. What the call loses or lacks is said in a warning, as for every other chapter photo.
 */
export function applyCoverCredit(
  current: ChapterState,
  next: ChapterState,
  fields: ChapterFields,
  warn: (message: string) => void,
): void {
  const sent = CREDIT_FIELDS.filter((field) => fields[field] !== undefined);
  if (fields.coverStorageId === undefined && sent.length === 0) return;
  const cover = next.coverStorageId ?? undefined;
  if (cover === undefined) {
    for (const field of sent) {
      if (filled(fields[field] ?? undefined) !== undefined) warn(droppedWithoutPhoto('', field, NAMES.photo));
    }
    for (const field of CREDIT_FIELDS) delete next[field];
    return;
  }
  const carried = cover === current.coverStorageId;
  if (!carried && current.coverCredit !== undefined && fields.coverCredit === undefined) {
    warn(
      `coverCredit "${current.coverCredit}" was the previous cover's and stays with it: if the same person took ` +
        'the new cover, send coverCredit again.',
    );
  }
  for (const field of CREDIT_FIELDS) {
    const value =
      fields[field] !== undefined ? filled(fields[field] ?? undefined) : carried ? current[field] : undefined;
    if (value === undefined) delete next[field];
    else next[field] = value;
  }
  next.coverCredit = creditFor('', cover, next.coverCredit, warn, NAMES);
  if (next.coverCredit === undefined) delete next.coverCredit;
}
