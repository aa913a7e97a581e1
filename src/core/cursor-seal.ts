import type { KeyObject } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { frozenWithLast } from './json.ts';
import { badCursor } from './paging.ts';
import { KeptKey, openSealed, sealText } from './sealed-text.ts';

/** Fields a cursor reads on whatever they hold: how much a page shows, never which records. */
const READ_ON_FIELDS = new Set(['cursor', 'limit', 'view']);

/**
 * How many bindings (creator and filters) a kept page's sealed copies are kept for. A kept page is
 * one guide's, under one list and filters, so its callers nearly always bind alike; past this,
 * cursors are sealed for each answer as before.
 */
const SEALED_COPIES_PER_PAGE = 4;

/** What a call that may page does with its answer: seal the next page's position into a cursor. */
export interface PagedCall {
  /** The answer as it is when it has no next page (no promise), else a copy with its cursor sealed. */
  seal(answer: Record<string, unknown>): Record<string, unknown> | Promise<Record<string, unknown>>;
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
  /**
   * Positions of cursors opened lately, by binding and cursor: clients walking one list send the
   * same cursors (a kept page's is sealed once). Opening is a function of the key, the cursor and
   * the binding alone, so a position found here is the one opening again would give; only cursors
   * that opened are kept, up to about a megabyte of them (a place's cursor may be 5,400 characters).
   */
  readonly #opened = new LRUCache<string, string>({
    max: 1024,
    maxSize: 1_000_000,
    sizeCalculation: (position, opened) => opened.length + position.length,
  });
  /** A kept page's copies with their cursors sealed, by binding, for as long as the page is kept. */
  readonly #sealedCopies = new WeakMap<object, Map<string, Promise<Record<string, unknown>>>>();

  constructor(loadKey: () => Promise<Buffer>) {
    this.#loadKey = loadKey;
  }

  /**
   * Opens the cursor `input` carries, in place, into the position it seals, or refuses it
   * (invalid_argument naming `cursor`); answers how to seal the call's `nextCursor`. Without a
   * cursor to open, or a next one to seal, the answer comes at once, not as a promise: every call
   * passes here, and each await is a turn of the microtask queue.
   */
  open(operation: string, creatorId: string, input: Record<string, unknown>): PagedCall | Promise<PagedCall> {
    const binding = () => bindingOf(operation, creatorId, input);
    const paged: PagedCall = {
      seal: (answer) => {
        if (typeof answer.nextCursor !== 'string') return answer;
        if (Object.isFrozen(answer)) return this.#sealedCopy(answer, answer.nextCursor, binding());
        return this.#seal(answer.nextCursor, binding()).then((nextCursor) => ({ ...answer, nextCursor }));
      },
    };
    if (typeof input.cursor !== 'string') return paged;
    return this.#open(input.cursor, binding()).then((position) => {
      input.cursor = position;
      return paged;
    });
  }

  /**
   * A frozen page kept for every caller, answered with its cursor sealed once per binding while it
   * is kept (a copy, never a change), so that its JSON, bytes and compressed forms are made once
   * too (core/json.ts, transports/compression.ts) instead of on every call. The cursor is the same
   * for every call of one binding for that page: it seals the same position for the same list,
   * filters and creator, and opens exactly as a cursor sealed anew would.
   */
  #sealedCopy(answer: Record<string, unknown>, position: string, binding: string): Promise<Record<string, unknown>> {
    let copies = this.#sealedCopies.get(answer);
    if (!copies) {
      copies = new Map();
      this.#sealedCopies.set(answer, copies);
    }
    let copy = copies.get(binding);
    if (copy) return copy;
    copy = this.#seal(position, binding).then((cursor) => frozenWithLast(answer, 'nextCursor', cursor));
    if (copies.size < SEALED_COPIES_PER_PAGE) {
      const kept = copies;
      kept.set(binding, copy);
      // A failure (the key not read) is not kept: the next call tries again.
      copy.catch(() => kept.delete(binding));
    }
    return copy;
  }

  async #seal(position: string, binding: string): Promise<string> {
    return sealText(await this.#keyOnce(), position, binding);
  }

  async #open(cursor: string, binding: string): Promise<string> {
    const opened = `${binding}\n${cursor}`;
    const known = this.#opened.get(opened);
    if (known !== undefined) return known;
    const position = openSealed(await this.#keyOnce(), cursor, binding);
    if (position === undefined) throw badCursor();
    this.#opened.set(opened, position);
    return position;
  }

  #keyOnce(): Promise<KeyObject> {
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
