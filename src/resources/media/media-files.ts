import type { PublicFile } from '../../core/resource.ts';
import { type BlobInfo, type BlobStore, deleteBlobs, newBlobKey, putBlobs } from './blob-store.ts';
import { type KeepRendition, RENDITIONS, type Rendition, type RenditionName } from './image-pipeline.ts';

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

/** The addresses a served path may turn into: this service's, or the bucket's own (S3_PUBLIC_URL). */
export interface FileUrls {
  publicUrl: string;
  /** Files are fetched from `${mediaUrl}<blob key>` when set; from `${publicUrl}/media/…` otherwise. */
  mediaUrl?: string | undefined;
}

/** The blob keys of every served path a JSON text holds as a whole string (a release's snapshot). */
export function mediaKeysInJson(json: string): string[] {
  return [...new Set(Array.from(json.matchAll(MEDIA_PATH_IN_JSON), (m) => m[1] as string))];
}

/** An absolute address for a path under this service's public URL; an address elsewhere stays as it is. */
export function absoluteUrl(publicUrl: string, path: string): string {
  return path.startsWith('/') ? `${publicUrl}${path}` : path;
}

/** Where a buyer fetches the file a served path names; any other path or address as absoluteUrl makes it. */
export function fileUrl(urls: FileUrls, path: string): string {
  const key = urls.mediaUrl === undefined ? undefined : keyOfMediaPath(path);
  return key === undefined ? absoluteUrl(urls.publicUrl, path) : `${urls.mediaUrl}${key}`;
}

/**
 * A copy of a value (a release's snapshot) with every served path it holds as a whole string made
 * the address a buyer fetches it from; the value itself when files are served here.
 */
export function withFileUrls<T>(value: T, urls: FileUrls): T {
  if (urls.mediaUrl === undefined) return value;
  const json = JSON.stringify(value).replace(MEDIA_PATH_IN_JSON, (path) =>
    JSON.stringify(fileUrl(urls, JSON.parse(path) as string)),
  );
  return JSON.parse(json) as T;
}

/** Each rendition's address; `{ publicUrl: '' }` keeps them as paths (what a release stores). */
export function urlsOf(urls: FileUrls, files: StoredFiles): Record<RenditionName, string> {
  return {
    original: fileUrl(urls, mediaPath(files.original)),
    large: fileUrl(urls, mediaPath(files.large)),
    medium: fileUrl(urls, mediaPath(files.medium)),
    small: fileUrl(urls, mediaPath(files.small)),
  };
}

export function keysOf(files: StoredFiles): string[] {
  return RENDITIONS.map((name) => files[name].key);
}

/** What a row keeps of a file: where the store put it and what the rendition measured. */
function storedFile(info: BlobInfo, rendition: Rendition): StoredFile {
  return {
    key: info.key,
    contentType: info.contentType,
    width: rendition.width,
    height: rendition.height,
    bytes: info.size,
  };
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
    RENDITIONS.map((name, i) => [name, storedFile(written[i] as BlobInfo, renditions[name])]),
  ) as StoredFiles;
}

/**
 * Writes each file of one photo as soon as it is encoded (its `keep`, for processUpload), while the
 * others still encode, and remembers every key it began to write: when the upload fails, `discard`
 * deletes them all once their writes have ended, so a failed upload leaves no file behind.
 */
export class RenditionWriter {
  private readonly blobs: BlobStore;
  private readonly keys: string[] = [];
  private readonly writes: Promise<unknown>[] = [];
  private discarded = false;

  constructor(blobs: BlobStore) {
    this.blobs = blobs;
  }

  readonly keep: KeepRendition<StoredFile> = async (name, rendition) => {
    if (this.discarded) throw new Error(`the upload was given up: its ${name} file is not written`);
    const key = newBlobKey();
    this.keys.push(key);
    const write = this.blobs.put(key, rendition.bytes, rendition.contentType);
    this.writes.push(write);
    return storedFile(await write, rendition);
  };

  async discard(): Promise<void> {
    this.discarded = true;
    await Promise.allSettled(this.writes);
    await deleteBlobs(this.blobs, this.keys);
  }
}

export function deleteFiles(blobs: BlobStore, files: StoredFiles): Promise<void> {
  return deleteBlobs(blobs, keysOf(files));
}

/**
 * A served name (`<key>.<ext>`) to its file, while `served` says something buyers or the creator
 * may see names it (MediaStore.isServed); the extension must be the stored type's. A file kept
 * only for an older release or the history is stored, not served.
 */
export async function openMediaFile(
  blobs: BlobStore,
  name: string,
  served: (key: string, path: string) => Promise<boolean>,
): Promise<PublicFile | undefined> {
  const path = `${MEDIA_PREFIX}/${name}`;
  const key = keyOfMediaPath(path);
  if (key === undefined || !(await served(key, path))) return undefined;
  const blob = await blobs.open(key);
  if (!blob) return undefined;
  if (mediaPath(blob) !== path) {
    blob.stream.destroy();
    return undefined;
  }
  return { contentType: blob.contentType, size: blob.size, etag: blob.etag, stream: blob.stream };
}
