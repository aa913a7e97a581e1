import { badCursor } from './paging.ts';
import { KeptKey, openSealed, sealText } from './sealed-text.ts';

/** Fields a cursor reads on whatever they hold: how much a page shows, never which records. */
const READ_ON_FIELDS = new Set(['cursor', 'limit', 'view']);

/** What a call that may page does with its answer: seal the next page's position into a cursor. */
export interface PagedCall {
  seal(answer: Record<string, unknown>): Promise<Record<string, unknown>>;
}

/**
 * Cursors are sealed (AES-256-GCM): a client reads nothing in one, and one changed by a single bit,
 * made up, or sent with another list, other filters or by another creator does not open. What is
 * sealed is the position a list resumes after (core/paging.ts); what it is bound to (the
 * authenticated data) is the operation, the creator and every input field but those that only
 * shape a page (`READ_ON_FIELDS`). Every list goes through here, from `invoke`, so no list decodes
 * a client's bytes itself. The key is shared by every instance of a deployment (kept in the store),
 * so a cursor one instance issued reads on at another; it is read once per process.
 */
export class CursorSeal {
  readonly #loadKey: () => Promise<Buffer>;
  readonly #key = new KeptKey();

  constructor(loadKey: () => Promise<Buffer>) {
    this.#loadKey = loadKey;
  }

  /**
   * Opens the cursor `input` carries, in place, into the position it seals, or refuses it
   * (invalid_argument naming `cursor`); answers how to seal the call's `nextCursor`.
   */
  async open(operation: string, creatorId: string, input: Record<string, unknown>): Promise<PagedCall> {
    const binding = () => bindingOf(operation, creatorId, input);
    if (typeof input.cursor === 'string') input.cursor = await this.#open(input.cursor, binding());
    return {
      seal: async (answer) =>
        typeof answer.nextCursor === 'string'
          ? // A copy, never a change: the answer may be a page kept for every caller.
            { ...answer, nextCursor: await this.#seal(answer.nextCursor, binding()) }
          : answer,
    };
  }

  async #seal(position: string, binding: string): Promise<string> {
    return sealText(await this.#keyOnce(), position, binding);
  }

  async #open(cursor: string, binding: string): Promise<string> {
    const position = openSealed(await this.#keyOnce(), cursor, binding);
    if (position === undefined) throw badCursor();
    return position;
  }

  #keyOnce(): Promise<Buffer> {
    return this.#key.get(this.#loadKey);
  }
}

/** The list, creator and filters a cursor is good for, in one spelling whatever the fields' order. */
function bindingOf(operation: string, creatorId: string, input: Record<string, unknown>): string {
  const filters = Object.keys(input)
    .filter((field) => !READ_ON_FIELDS.has(field) && input[field] !== undefined)
    .sort()
    .map((field) => [field, input[field]]);
  return JSON.stringify([operation, creatorId, filters]);
}
