import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { newId } from '../../core/new-id.ts';

/** What is known of a stored file without reading it. */
export interface BlobInfo {
  key: string;
  contentType: string;
  /** A strong ETag, quoted, from the content's SHA-256. */
  etag: string;
  size: number;
}

export interface StoredBlob extends BlobInfo {
  bytes: Buffer;
}

export interface BlobStream extends BlobInfo {
  /** Must be read to the end or destroyed: it holds an open file. */
  stream: Readable;
}

/**
 * Where photo files live. Keys name files forever: a key is written once, and a file is replaced only
 * by deleting it and writing under a new key, so an ETag never changes under a key.
 */
export interface BlobStore {
  /** Writes atomically: a reader sees the whole file under the key, or nothing. */
  put(key: string, bytes: Buffer, contentType: string): Promise<BlobInfo>;
  get(key: string): Promise<StoredBlob | undefined>;
  /** The file as a stream, for serving large files without holding them in memory. */
  open(key: string): Promise<BlobStream | undefined>;
  /** Deleting a missing key is not an error. */
  delete(key: string): Promise<unknown>;
  /** Every stored key with when it was last written, for the sweep of files no row names. */
  list(): AsyncIterable<ListedBlob>;
  /**
   * Removes what interrupted writes left beside the keys (a folder's temporary files) last changed
   * before `before` (ms, the system's time); answers how many it removed and how many younger ones
   * it left (a write under way, here or on another instance). A store whose writes leave nothing
   * behind (a bucket's puts are atomic) has none.
   */
  removeLeftovers?(before: number): Promise<{ removed: number; young: number }>;
  /** Lets go of connections, when the store holds any. */
  close?(): void;
}

export interface ListedBlob {
  key: string;
  modifiedMs: number;
}

const BLOB_KEY = /^[A-Za-z0-9_-]{8,128}$/;

/** A fresh unguessable, URL-safe key (96 random bits, as ids are). */
export function newBlobKey(): string {
  return newId('blob');
}

/** Keys become file and object names: only URL-safe characters, so none can climb out of the store. */
function assertBlobKey(key: string): void {
  if (!BLOB_KEY.test(key)) throw new TypeError(`Not a blob key: ${JSON.stringify(key)}`);
}

function etagOf(bytes: Buffer): string {
  return `"${createHash('sha256').update(bytes).digest('base64url')}"`;
}

/** What a store keeps of a file beside its bytes: all a BlobInfo says but the key. */
export type BlobFacts = Omit<BlobInfo, 'key'>;

/**
 * What every store does the same way: a key is checked before it names anything in the store, a
 * file's ETag and size come from its bytes as it is written, and a listing yields only names that
 * are keys (a folder or bucket may hold others). A store says where a key's file lives and how a
 * file is written, read, deleted and listed.
 */
export abstract class KeyedBlobStore implements BlobStore {
  /** The key's place in the store (a path, an object name); the key is already checked. */
  protected abstract placeOf(key: string): string;
  /** Writes the bytes and their facts at `place`: whole, or not at all. */
  protected abstract write(place: string, bytes: Buffer, facts: BlobFacts): Promise<void>;
  /** Every name the store holds with when it was last written, keys or not. */
  protected abstract names(): AsyncIterable<ListedBlob>;
  abstract get(key: string): Promise<StoredBlob | undefined>;
  abstract open(key: string): Promise<BlobStream | undefined>;
  abstract delete(key: string): Promise<unknown>;

  /** The key's place, once the key is known to be one: no key can climb out of the store. */
  protected place(key: string): string {
    assertBlobKey(key);
    return this.placeOf(key);
  }

  async put(key: string, bytes: Buffer, contentType: string): Promise<BlobInfo> {
    const facts: BlobFacts = { contentType, etag: etagOf(bytes), size: bytes.length };
    await this.write(this.place(key), bytes, facts);
    return { key, ...facts };
  }

  async *list(): AsyncIterable<ListedBlob> {
    for await (const blob of this.names()) if (BLOB_KEY.test(blob.key)) yield blob;
  }
}

export interface BlobToWrite {
  /** A fresh key is made when absent. */
  key?: string;
  bytes: Buffer;
  contentType: string;
}

/**
 * Writes every file or none: when one write fails, the files already written are deleted and the
 * failure is rethrown.
 */
export async function putBlobs(store: BlobStore, blobs: readonly BlobToWrite[]): Promise<BlobInfo[]> {
  const keys = blobs.map((blob) => blob.key ?? newBlobKey());
  const puts = await Promise.allSettled(blobs.map((blob, i) => store.put(keys[i]!, blob.bytes, blob.contentType)));
  const failed = puts.find((put) => put.status === 'rejected');
  if (failed) {
    await deleteBlobs(store, keys);
    throw failed.reason;
  }
  return puts.map((put) => (put as PromiseFulfilledResult<BlobInfo>).value);
}

/** Deletes every key it can; a key that cannot be deleted now is left behind, never named again. */
export async function deleteBlobs(store: BlobStore, keys: readonly string[]): Promise<void> {
  await Promise.allSettled(keys.map((key) => store.delete(key)));
}

/**
 * Files are written before the row that names them. Writes the files, then runs `commit` (the row's
 * transaction) with what was stored; when a write or the commit fails, deletes every file written
 * and rethrows, so a failed operation leaves no file behind. A crash between the two leaves files no
 * row names, which are harmless.
 */
export async function storeBlobsThen<T>(
  store: BlobStore,
  blobs: readonly BlobToWrite[],
  commit: (stored: BlobInfo[]) => Promise<T>,
): Promise<T> {
  const stored = await putBlobs(store, blobs);
  try {
    return await commit(stored);
  } catch (err) {
    await deleteBlobs(
      store,
      stored.map((blob) => blob.key),
    );
    throw err;
  }
}
