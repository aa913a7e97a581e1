import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Where the specification and the design notes live. They are not part of the repository: the
 * project's own checkout keeps them in a `shared` folder beside it, and SPEC_DIR points elsewhere.
 * A user's clone has neither, so the tests that compare against them skip there, with one note.
 */
const folder = process.env.SPEC_DIR
  ? pathToFileURL(`${resolve(process.env.SPEC_DIR)}/`)
  : new URL('../../../shared/', import.meta.url);

export const specPath = fileURLToPath(new URL('spec/creator-api.md', folder));
export const designPath = fileURLToPath(new URL('design.md', folder));

/** Whether both documents are there to compare against. */
export const specPresent = existsSync(specPath) && existsSync(designPath);

/** The specification's text; only call where specPresent. */
export const readSpec = (): string => readFileSync(specPath, 'utf8');
/** The design notes' text; only call where specPresent. */
export const readDesign = (): string => readFileSync(designPath, 'utf8');
