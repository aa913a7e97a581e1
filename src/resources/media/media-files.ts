import { join } from 'node:path';
import type { PublicFile } from '../../core/resource.ts';
import {
  type BlobInfo,
  type BlobStore,
  type BlobStream,
  deleteBlobs,
  putBlobs,
  type StoredBlob,
} from './blob-store.ts';
import type { Rendition, RenditionName } from './image-pipeline.ts';
import { LocalBlobStore } from './local-blob-store.ts';

/** Where every photo file is served from: `/media/<blob key>.<ext>`, no key needed. */
export const MEDIA_PREFIX = '/media';

const EXTENSIONS: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp' };

export interface StoredFile {
  key: string;
  contentType: string;
  width: number;
  height: number;
  bytes: number;
}

export type StoredFiles = Record<RenditionName, StoredFile>;

export const RENDITIONS: readonly RenditionName[] = ['original', 'large', 'medium', 'small'];

/** The path a stored file is served under; the key alone is unguessable (96 random bits). */
export function mediaPath(file: Pick<StoredFile, 'key' | 'contentType'>): string {
  return `${MEDIA_PREFIX}/${file.key}.${EXTENSIONS[file.contentType] ?? 'bin'}`;
}

/** The blob key a served path names, or undefined for anything else. */
export function keyOfMediaPath(path: string): string | undefined {
  const m = /^\/media\/([A-Za-z0-9_-]{8,128})\.[a-z]+$/.exec(path);
  return m?.[1];
}

/** A JSON string that is exactly a served path: creator text that merely mentions one is not matched. */
const MEDIA_PATH_IN_JSON = /"\/media\/([A-Za-z0-9_-]{8,128})\.[a-z]+"/g;

/** The blob keys of every served path a JSON text holds as a whole string (a release's snapshot). */
export function mediaKeysInJson(json: string): string[] {
  return [...new Set(Array.from(json.matchAll(MEDIA_PATH_IN_JSON), (m) => m[1] as string))];
}

/** An absolute address for a path under this service's public URL; an address elsewhere stays as it is. */
export function absoluteUrl(publicUrl: string, path: string): string {
  return path.startsWith('/') ? `${publicUrl}${path}` : path;
}

export function urlsOf(publicUrl: string, files: StoredFiles): Record<RenditionName, string> {
  return {
    original: absoluteUrl(publicUrl, mediaPath(files.original)),
    large: absoluteUrl(publicUrl, mediaPath(files.large)),
    medium: absoluteUrl(publicUrl, mediaPath(files.medium)),
    small: absoluteUrl(publicUrl, mediaPath(files.small)),
  };
}

export function keysOf(files: StoredFiles): string[] {
  return RENDITIONS.map((name) => files[name].key);
}

/** Writes every rendition or none (files are written before the row that names them). */
export async function storeRenditions(
  blobs: BlobStore,
  renditions: Record<RenditionName, Rendition>,
): Promise<StoredFiles> {
  const written = await putBlobs(
    blobs,
    RENDITIONS.map((name) => ({ bytes: renditions[name].bytes, contentType: renditions[name].contentType })),
  );
  return Object.fromEntries(
    RENDITIONS.map((name, i) => {
      const info = written[i] as BlobInfo;
      const r = renditions[name];
      return [
        name,
        { key: info.key, contentType: info.contentType, width: r.width, height: r.height, bytes: info.size },
      ];
    }),
  ) as StoredFiles;
}

export function deleteFiles(blobs: BlobStore, files: StoredFiles): Promise<void> {
  return deleteBlobs(blobs, keysOf(files));
}

/** A served name (`<key>.<ext>`) to its file; the extension must be the stored type's. */
export async function openMediaFile(blobs: BlobStore, name: string): Promise<PublicFile | undefined> {
  const key = keyOfMediaPath(`${MEDIA_PREFIX}/${name}`);
  if (key === undefined) return undefined;
  const blob = await blobs.open(key);
  if (!blob) return undefined;
  if (mediaPath(blob) !== `${MEDIA_PREFIX}/${name}`) {
    blob.stream.destroy();
    return undefined;
  }
  return { contentType: blob.contentType, size: blob.size, etag: blob.etag, stream: blob.stream };
}

/**
 * The blob store of the settings (MEDIA_DIR, else DATA_DIR/media), opened on first use: services
 * are built before anything is awaited, and a process that never touches a photo never opens it.
 */
export function lazyLocalBlobStore(root: string): BlobStore {
  let opened: Promise<BlobStore> | undefined;
  const store = () => {
    opened ??= LocalBlobStore.open(root).catch((err: unknown) => {
      opened = undefined;
      throw err;
    });
    return opened;
  };
  return {
    put: async (key, bytes, contentType): Promise<BlobInfo> => (await store()).put(key, bytes, contentType),
    get: async (key): Promise<StoredBlob | undefined> => (await store()).get(key),
    open: async (key): Promise<BlobStream | undefined> => (await store()).open(key),
    delete: async (key): Promise<boolean> => (await store()).delete(key),
    list: async function* () {
      yield* (await store()).list();
    },
  };
}

export function mediaRoot(settings: { dataDir: string; mediaDir?: string | undefined }): string {
  return settings.mediaDir ?? join(settings.dataDir, 'media');
}
