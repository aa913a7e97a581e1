import type { Readable } from 'node:stream';
import type { Migration } from 'kysely/migration';
import type { Caches } from './caches.ts';
import type { Clock } from './clock.ts';
import type { GuidePartReaders } from './guide-contents.ts';
import type { HistoryTables } from './history.ts';
import type { AnyOperation, OperationContext, Urls } from './operation.ts';
import type { ReferenceKind, ReferenceTargets } from './references.ts';
import type { ServiceSettings, Services } from './services.ts';
import type { StoreFactories, Stores } from './stores.ts';

/** A file as a public route serves it. */
export interface PublicFile {
  contentType: string;
  size: number;
  /** A strong ETag, quoted; the file under a name never changes, so it may be cached for good. */
  etag: string;
  /** Must be read to the end or destroyed. */
  stream: Readable;
}

/** What a public file is opened with: the services (where files live) and the stores, outside any transaction. */
export interface PublicFileReader {
  services: Services;
  stores: Stores;
}

/** Files anyone may read without a key, outside /api/v1 (the photos buyers see), by unguessable name. */
export interface PublicFiles {
  /** The URL path they live under, such as `/media`. */
  prefix: string;
  /** The file a name (the last path segment) stands for, or undefined: 404. */
  open(name: string, reader: PublicFileReader): Promise<PublicFile | undefined>;
}

/** An HTML page as a public route serves it: the same Buffer for as long as its content stands. */
export interface PublicPage {
  /** The whole document, UTF-8; the transport compresses it once per Buffer. */
  html: Buffer;
  /** A strong ETag, quoted, that changes whenever the bytes do. */
  etag: string;
}

/**
 * What a public page reads with: the stores (outside any transaction), the public addresses and the
 * app's caches (rendered pages are kept there).
 */
export interface PublicPageReader {
  stores: Stores;
  urls: Urls;
  caches: Caches;
}

/**
 * A page anyone may open in a browser without a key (the sales page buyers see), outside /api/v1.
 * Served for GET and HEAD only, with a restrictive Content-Security-Policy, an ETag and a short
 * cache lifetime, since a publish changes it.
 */
export interface PublicPages {
  /** The route, Fastify style: `/g/:creatorSlug/:guideSlug`. */
  path: string;
  /** The policy every answer of the route carries, the not-found page included, for the public addresses. */
  contentSecurityPolicy(urls: Urls): string;
  /** Seconds a browser or shared cache may keep a page before asking again. */
  maxAgeSeconds: number;
  /** The page the path's parameters name, or undefined: 404 with `notFound`. */
  find(params: Record<string, string>, reader: PublicPageReader): Promise<PublicPage | undefined>;
  /** The small HTML document a 404 answers, the same whichever part of the address was wrong. */
  notFound: Buffer;
}

/** A file made for one download (an export), whole, with the name a browser saves it under. */
export interface Download {
  contentType: string;
  /** The file name offered in Content-Disposition; any characters, the transport encodes it. */
  fileName: string;
  /** The file, or a stream of it (an archive, written as it is sent). */
  body: Buffer | Readable;
}

/**
 * Files anyone holding a short-lived address may download without a key (a guide's export), under
 * `${prefix}/:token`. Never cached: the token is the only key, and it expires.
 */
export interface PublicDownloads {
  prefix: string;
  /** What a token stands for while it works, or undefined: 404, the same for every failure. */
  open(
    token: string,
    reader: PublicPageReader & { services: Services; clock: Clock },
  ): Promise<OpenedDownload | undefined>;
}

/**
 * A download a working token opened: who asked for it, whose budgets it spends from (the rate
 * limits every call pays), and its file, written only once that is paid.
 */
export interface OpenedDownload {
  /** The API key's id, assistant's grant id or studio session's id that asked for the address. */
  madeBy: string;
  creatorId: string;
  write(): Promise<Download>;
}

/** The OpenAPI tag a resource's operations are listed under, and what it says about them. */
export interface ResourceTag {
  name: string;
  description: string;
}

/**
 * A reference the resource's records hold to another resource's record, declared by the holder, as
 * a foreign key is: the kind of record it points at, and what becomes of the reference when such a
 * record is deleted (`onDelete` takes it out or rewrites it; throwing refuses the delete). The
 * deleting resource asks `ctx.deleteReferencesTo(kind, record)` and names no holder; the steps run
 * in its transaction. References a table's own foreign key cascades need no declaration.
 */
export type HeldReference = {
  [K in ReferenceKind]: { to: K; onDelete(target: ReferenceTargets[K], ctx: OperationContext): Promise<void> };
}[ReferenceKind];

/**
 * What a resource folder offers: its OpenAPI tag, its operations, the stores handlers reach, its tables'
 * migrations (named to sort after the foundation's), services built from the settings, the caches
 * each app keeps, how to read its parts of a whole guide, and files and pages served publicly.
 */
export interface Resource {
  tag: ResourceTag;
  operations: readonly AnyOperation[];
  stores?: Partial<StoreFactories>;
  /**
   * The other resources' stores its files reach through `ctx.stores`, its own left out;
   * `src/resources/boundaries.test.ts` holds the list to what the source does.
   */
  usesStores?: readonly (keyof Stores)[];
  /** The references its records hold to other resources' records (see HeldReference). */
  references?: readonly HeldReference[];
  /**
   * What its tables' history needs beyond what the schema says (core/history.ts): record kinds,
   * rows that are parts of a record, stamps, tables that are not guide content. None is needed.
   */
  history?: HistoryTables;
  migrations?: Record<string, Migration>;
  services?: (settings: ServiceSettings) => Partial<Services>;
  /** Its caches, built empty once per app (see core/caches.ts). */
  caches?: () => Partial<Caches>;
  /** Its parts of a whole guide (core/guide-contents.ts), each read once, whole, for any whole-guide reader. */
  guideParts?: Partial<GuidePartReaders>;
  publicFiles?: PublicFiles;
  downloads?: PublicDownloads;
  publicPages?: readonly PublicPages[];
}
