import { randomUUID } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, stat, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { type BlobFacts, type BlobInfo, type BlobStream, KeyedBlobStore, type StoredBlob } from './blob-store.ts';

function isMissing(err: unknown): boolean {
  return (err as NodeJS.ErrnoException).code === 'ENOENT';
}

/**
 * Blobs as plain files under a folder (DATA_DIR/media by default): `<root>/<last two key
 * characters>/<key>`, with a `<key>.json` sidecar holding the content type, ETag and size. The
 * sidecar is written last and deleted first, so it is the mark that a file is complete: a file
 * without one is never served. Every file is written to `<root>/.tmp` and renamed into place.
 */
export class LocalBlobStore extends KeyedBlobStore {
  readonly root: string;
  private readonly tempDir: string;

  private constructor(root: string) {
    super();
    this.root = root;
    this.tempDir = join(root, '.tmp');
  }

  /**
   * Creates the folder when missing. Temporary files a crash left behind are the sweep's (at start
   * and on its schedule: orphan-sweep.ts), which knows how old a file must be to be nobody's.
   */
  static async open(root: string): Promise<LocalBlobStore> {
    const store = new LocalBlobStore(root);
    await mkdir(store.tempDir, { recursive: true });
    return store;
  }

  /** Removes temporary files last changed before `before` (ms); other instances may be writing newer ones. */
  async removeLeftovers(before: number): Promise<{ removed: number; young: number }> {
    let removed = 0;
    let young = 0;
    for (const name of await readdir(this.tempDir)) {
      const path = join(this.tempDir, name);
      const info = await stat(path).catch(() => undefined);
      if (info && info.mtimeMs < before) {
        await rm(path, { force: true });
        removed++;
      } else if (info) young++;
    }
    return { removed, young };
  }

  protected placeOf(key: string): string {
    return join(this.root, key.slice(-2), key);
  }

  /** Whole file, synced, under a temporary name: the real name never holds a partial file. */
  private async writeTemp(bytes: Buffer): Promise<string> {
    const temp = join(this.tempDir, randomUUID());
    try {
      const file = await open(temp, 'wx');
      try {
        await file.writeFile(bytes);
        await file.sync();
      } finally {
        await file.close();
      }
      return temp;
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
  }

  /**
   * The file and its sidecar are written and synced side by side (one sync's wait, not two), then
   * renamed into place, the file first: the sidecar still appears last.
   */
  protected async write(path: string, bytes: Buffer, sidecar: BlobFacts): Promise<void> {
    const [folder, file, facts] = await Promise.allSettled([
      mkdir(dirname(path), { recursive: true }),
      this.writeTemp(bytes),
      this.writeTemp(Buffer.from(JSON.stringify(sidecar))),
    ]);
    const temps = [file, facts].flatMap((written) => (written.status === 'fulfilled' ? [written.value] : []));
    try {
      for (const step of [folder, file, facts]) if (step.status === 'rejected') throw step.reason;
      await rename(temps[0] as string, path);
      await rename(temps[1] as string, `${path}.json`);
    } catch (err) {
      await Promise.all(temps.map((temp) => rm(temp, { force: true })));
      throw err;
    }
  }

  private async info(key: string, path: string): Promise<BlobInfo | undefined> {
    try {
      const sidecar = JSON.parse(await readFile(`${path}.json`, 'utf8')) as BlobFacts;
      return { key, contentType: sidecar.contentType, etag: sidecar.etag, size: sidecar.size };
    } catch (err) {
      if (isMissing(err) || err instanceof SyntaxError) return undefined;
      throw err;
    }
  }

  /** The sidecar's facts plus what `load` reads of the file; undefined when either is missing. */
  private async read<T>(key: string, load: (path: string) => Promise<T>): Promise<(BlobInfo & T) | undefined> {
    const path = this.place(key);
    const info = await this.info(key, path);
    if (!info) return undefined;
    try {
      return { ...info, ...(await load(path)) };
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  get(key: string): Promise<StoredBlob | undefined> {
    return this.read(key, async (path) => ({ bytes: await readFile(path) }));
  }

  open(key: string): Promise<BlobStream | undefined> {
    // Opened now, so a delete after this answer cannot cut the stream short.
    return this.read(key, async (path) => ({ stream: (await open(path, 'r')).createReadStream() }));
  }

  /** Names of files and of sidecars left without their file, from the folders keys are kept in. */
  protected async *names() {
    for (const folder of await readdir(this.root)) {
      if (folder === '.tmp') continue;
      const names = await readdir(join(this.root, folder)).catch(() => [] as string[]);
      const keys = new Set(names.map((name) => name.replace(/\.json$/, '')));
      for (const key of keys) {
        const info =
          (await stat(join(this.root, folder, key)).catch(() => undefined)) ??
          (await stat(join(this.root, folder, `${key}.json`)).catch(() => undefined));
        if (info) yield { key, modifiedMs: info.mtimeMs };
      }
    }
  }

  async delete(key: string): Promise<boolean> {
    const path = this.place(key);
    // The sidecar first: from then on the file is no longer served, whatever happens next.
    const sidecar = await unlinkIfPresent(`${path}.json`);
    const file = await unlinkIfPresent(path);
    return sidecar || file;
  }
}

async function unlinkIfPresent(path: string): Promise<boolean> {
  try {
    await unlink(path);
    return true;
  } catch (err) {
    if (isMissing(err)) return false;
    throw err;
  }
}
