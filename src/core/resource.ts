import type { Readable } from 'node:stream';
import type { Migration } from 'kysely/migration';
import type { AnyOperation } from './operation.ts';
import type { ServiceSettings, Services } from './services.ts';
import type { StoreFactories } from './stores.ts';

/** A file as a public route serves it. */
export interface PublicFile {
  contentType: string;
  size: number;
  /** A strong ETag, quoted; the file under a name never changes, so it may be cached for good. */
  etag: string;
  /** Must be read to the end or destroyed. */
  stream: Readable;
}

/** Files anyone may read without a key, outside /api/v1 (the photos buyers see), by unguessable name. */
export interface PublicFiles {
  /** The URL path they live under, such as `/media`. */
  prefix: string;
  /** The file a name (the last path segment) stands for, or undefined: 404. */
  open(name: string, services: Services): Promise<PublicFile | undefined>;
}

/**
 * What a resource folder offers: its operations, the stores handlers reach, its tables'
 * migrations (named to sort after the foundation's), services built from the settings, and files
 * served publicly.
 */
export interface Resource {
  operations: readonly AnyOperation[];
  stores?: Partial<StoreFactories>;
  migrations?: Record<string, Migration>;
  services?: (settings: ServiceSettings) => Partial<Services>;
  publicFiles?: PublicFiles;
}
