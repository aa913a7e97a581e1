import { join } from 'node:path';
import type { ServiceSettings } from '../../core/services.ts';
import type { BlobStore } from './blob-store.ts';
import { LocalBlobStore } from './local-blob-store.ts';

/** The folder of photo files on disk: MEDIA_DIR, else DATA_DIR/media. */
export function mediaRoot(settings: Pick<ServiceSettings, 'dataDir' | 'mediaDir'>): string {
  return settings.mediaDir ?? join(settings.dataDir, 'media');
}

/**
 * A store opened on first use: services are built before anything is awaited, and a process that
 * never touches a photo never opens its folder or loads the AWS SDK (~35 MB, a tenth of a second).
 * A failed opening is tried again on the next use.
 */
function lazyBlobStore(open: () => Promise<BlobStore>): BlobStore {
  let opened: Promise<BlobStore> | undefined;
  const store = () => {
    opened ??= open().catch((err: unknown) => {
      opened = undefined;
      throw err;
    });
    return opened;
  };
  return {
    put: async (key, bytes, contentType) => (await store()).put(key, bytes, contentType),
    get: async (key) => (await store()).get(key),
    open: async (key) => (await store()).open(key),
    delete: async (key) => (await store()).delete(key),
    list: async function* () {
      yield* (await store()).list();
    },
    removeLeftovers: async (before) => (await store()).removeLeftovers?.(before) ?? { removed: 0, young: 0 },
    close: () =>
      void opened?.then(
        (s) => s.close?.(),
        () => {},
      ),
  };
}

/** The folder's store (created when missing), opened on first use. */
export function lazyLocalBlobStore(root: string): BlobStore {
  return lazyBlobStore(() => LocalBlobStore.open(root));
}

/** Where the settings keep photo files: the bucket when S3_BUCKET is set, else the folder on disk. */
export function openBlobStore(settings: Pick<ServiceSettings, 'dataDir' | 'mediaDir' | 'bucket'>): BlobStore {
  const { bucket } = settings;
  if (!bucket) return lazyLocalBlobStore(mediaRoot(settings));
  return lazyBlobStore(async () => new (await import('./s3-blob-store.ts')).S3BlobStore(bucket));
}

export interface CopyResult {
  /** Keys written to the target. */
  copied: number;
  /** Keys the target had already (an earlier run): left as they are, since a key's bytes never change. */
  present: number;
}

/**
 * Copies every file of one store into another under the same key (the folder on disk into a new
 * bucket), so that every row and release names a file there too. Safe to run again: what the
 * target has is skipped, so a second run after switching copies only what came in meanwhile.
 */
export async function copyBlobs(from: BlobStore, to: BlobStore): Promise<CopyResult> {
  const there = new Set<string>();
  for await (const blob of to.list()) there.add(blob.key);
  let copied = 0;
  for await (const { key } of from.list()) {
    if (there.has(key)) continue;
    const blob = await from.get(key);
    // A file whose sidecar is missing was never served; it stays behind for the sweep.
    if (!blob) continue;
    await to.put(key, blob.bytes, blob.contentType);
    copied++;
  }
  return { copied, present: there.size };
}

/** Reads the first page of the store's listing: a bucket that is missing, unreachable or refuses fails here. */
export async function probeBlobStore(store: BlobStore): Promise<void> {
  for await (const _ of store.list()) break;
}
