import type { ChapterState } from './chapter.store.ts';
import { creditFor, droppedWithoutPhoto, filled } from './chapter-rules.ts';
import type { ChapterFields } from './chapter-writer.ts';

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
