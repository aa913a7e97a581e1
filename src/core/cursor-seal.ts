import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { badCursor } from './paging.ts';

/** Fields a cursor reads on whatever they hold: how much a page shows, never which records. */
const READ_ON_FIELDS = new Set(['cursor', 'limit', 'view']);

const CIPHER = 'aes-256-gcm';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

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
  #key: Promise<Buffer> | undefined;

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
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv(CIPHER, await this.#keyOnce(), nonce);
    cipher.setAAD(Buffer.from(binding));
    const sealed = Buffer.concat([cipher.update(position, 'utf8'), cipher.final()]);
    return Buffer.concat([nonce, sealed, cipher.getAuthTag()]).toString('base64url');
  }

  async #open(cursor: string, binding: string): Promise<string> {
    const bytes = Buffer.from(cursor, 'base64url');
    // Only the one spelling this service writes: Buffer skips stray characters and spare bits.
    if (bytes.length <= NONCE_BYTES + TAG_BYTES || bytes.toString('base64url') !== cursor) throw badCursor();
    const decipher = createDecipheriv(CIPHER, await this.#keyOnce(), bytes.subarray(0, NONCE_BYTES), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAAD(Buffer.from(binding));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    try {
      return Buffer.concat([
        decipher.update(bytes.subarray(NONCE_BYTES, bytes.length - TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      throw badCursor();
    }
  }

  /** The key, read once; a failed read (the store away) is tried again by the next call. */
  #keyOnce(): Promise<Buffer> {
    this.#key ??= this.#loadKey().catch((err: unknown) => {
      this.#key = undefined;
      throw err;
    });
    return this.#key;
  }
}

/** A fresh 256-bit cursor key, as the store keeps it. */
export function newCursorKey(): string {
  return randomBytes(32).toString('base64url');
}

/** The list, creator and filters a cursor is good for, in one spelling whatever the fields' order. */
function bindingOf(operation: string, creatorId: string, input: Record<string, unknown>): string {
  const filters = Object.keys(input)
    .filter((field) => !READ_ON_FIELDS.has(field) && input[field] !== undefined)
    .sort()
    .map((field) => [field, input[field]]);
  return JSON.stringify([operation, creatorId, filters]);
}
