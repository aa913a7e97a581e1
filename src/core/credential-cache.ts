import { LRUCache } from 'lru-cache';
import type { Clock } from './clock.ts';
import { type CacheName, countCache } from './work-meter.ts';

/** Tells whether a revocation may have happened since a mark was taken (see db/coordination.ts). */
export interface RevocationWatch {
  revocationMark(): string | undefined;
}

/** A credential as its store read it: what it stands for, and when it expires (null: never). */
export interface ReadCredential<T> {
  value: T;
  expiresAt: number | null;
}

interface Entry<T> extends ReadCredential<T> {
  mark: string;
  readAt: number;
}

/**
 * Credentials recently read from the store (API keys; any kind a caller presents on every
 * request), by an id derived from the secret. One is served from memory only while the
 * revocation mark it was read under still stands, for at most `ttlMs`, and never past its expiry:
 * a revocation announced anywhere (db/coordination.ts) reaches every instance within a second,
 * and `ttlMs` bounds changes written behind the service's back (SQL typed by hand).
 */
export class CredentialCache<T> {
  private readonly entries = new LRUCache<string, Entry<T>>({ max: 10_000 });
  private readonly watch: RevocationWatch | undefined;
  private readonly clock: Clock;
  private readonly ttlMs: number;
  /** The name its hits and misses are counted under (metrics). */
  private readonly name: CacheName | undefined;

  /** Without a watch, or with `ttlMs` 0, every call reads the store. */
  constructor(watch: RevocationWatch | undefined, clock: Clock, ttlMs: number, name?: CacheName) {
    this.watch = ttlMs > 0 ? watch : undefined;
    this.clock = clock;
    this.ttlMs = ttlMs;
    this.name = name;
  }

  /**
   * The credential `id` names, from memory when it still holds (the value itself, not a promise:
   * an authenticated call's every await is a turn of the microtask queue), else from `read`
   * (whose refusals pass through).
   */
  get(id: string, read: () => Promise<ReadCredential<T>>): T | Promise<T> {
    const mark = this.watch?.revocationMark();
    const now = this.clock.now();
    if (mark !== undefined) {
      const known = this.entries.get(id);
      if (
        known &&
        known.mark === mark &&
        now - known.readAt < this.ttlMs &&
        (known.expiresAt === null || known.expiresAt > now)
      ) {
        if (this.name) countCache(this.name, { hit: true });
        return known.value;
      }
    }
    if (this.watch && this.name) countCache(this.name, { hit: false });
    return this.readAndKeep(id, read, mark, now);
  }

  private async readAndKeep(
    id: string,
    read: () => Promise<ReadCredential<T>>,
    mark: string | undefined,
    now: number,
  ): Promise<T> {
    const credential = await read();
    // Kept only when no revocation was heard while it was read: a read that began before one
    // landed may have seen the row as it was.
    if (mark !== undefined && this.watch?.revocationMark() === mark) {
      this.entries.set(id, { ...credential, mark, readAt: now });
    }
    return credential.value;
  }
}
