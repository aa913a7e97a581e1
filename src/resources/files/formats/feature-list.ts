import { type ApiError, refuse } from '../../../core/errors.ts';
import { IMPORT_FEATURES_MAX, type ImportedFeature, type ImportedFile } from '../imported-file.ts';

/** The field a file arrives in: every reader's refusal names it. */
export const CONTENT = 'content';

/** A reader's refusal of the file: 400 naming `content`, the sentence saying what and where. */
export function refuseContent(sentence: string): ApiError {
  return refuse(CONTENT, sentence);
}

/**
 * A file's features as a reader finds them, refusing the file as soon as it holds more than
 * IMPORT_FEATURES_MAX: features read and features skipped both count, so a file of 100,000
 * polygons costs no more than one of 100,000 points.
 */
export class FeatureList {
  readonly file: ImportedFile = { features: [], skipped: [] };
  #count = 0;

  add(feature: ImportedFeature): void {
    this.#tick();
    this.file.features.push(feature);
  }

  skip(where: string, reason: string): void {
    this.#tick();
    this.file.skipped.push({ where, reason });
  }

  #tick(): void {
    this.#count += 1;
    if (this.#count > IMPORT_FEATURES_MAX) {
      throw refuseContent(
        `has more than ${IMPORT_FEATURES_MAX.toLocaleString('en')} features, the most one import takes; ` +
          'split the file.',
      );
    }
  }
}
