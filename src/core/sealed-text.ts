import { createCipheriv, createDecipheriv, createSecretKey, type KeyObject, randomBytes } from 'node:crypto';

/**
 * Text sealed for a client to hold and give back (a list's cursor, a download address): AES-256-GCM
 * under a key kept in the store, so a client reads nothing in it, and one changed by a single bit,
 * made up, or sent where another `binding` (the authenticated data) is expected does not open.
 */

const CIPHER = 'aes-256-gcm';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/** A fresh 256-bit key, as the store keeps it (base64url). */
export function newSealKey(): string {
  return randomBytes(32).toString('base64url');
}

/** The text sealed: nonce, ciphertext and tag, in base64url. */
export function sealText(key: KeyObject, text: string, binding?: string): string {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv(CIPHER, key, nonce);
  if (binding !== undefined) cipher.setAAD(Buffer.from(binding));
  const sealed = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return Buffer.concat([nonce, sealed, cipher.getAuthTag()]).toString('base64url');
}

/** The text a token seals, or undefined for a token this key and binding did not seal. */
export function openSealed(key: KeyObject, token: string, binding?: string): string | undefined {
  const bytes = Buffer.from(token, 'base64url');
  // Only the one spelling sealText writes: Buffer skips stray characters and spare bits.
  if (bytes.length <= NONCE_BYTES + TAG_BYTES || bytes.toString('base64url') !== token) return undefined;
  const decipher = createDecipheriv(CIPHER, key, bytes.subarray(0, NONCE_BYTES), { authTagLength: TAG_BYTES });
  if (binding !== undefined) decipher.setAAD(Buffer.from(binding));
  decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
  try {
    return Buffer.concat([
      decipher.update(bytes.subarray(NONCE_BYTES, bytes.length - TAG_BYTES)),
      decipher.final(),
    ]).toString('utf8');
  } catch {
    return undefined;
  }
}

/**
 * A key read once per process and kept; a failed read (the store away) is tried again by the next
 * use. Kept as a KeyObject: handed a Buffer, each cipher checks and imports the key again (about
 * three quarters of the 30 us an opening took).
 */
export class KeptKey {
  #key: Promise<KeyObject> | undefined;

  get(load: () => Promise<Buffer>): Promise<KeyObject> {
    this.#key ??= load().then(createSecretKey, (err: unknown) => {
      this.#key = undefined;
      throw err;
    });
    return this.#key;
  }
}
