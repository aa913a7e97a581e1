/**
 * One release: an immutable snapshot of what buyers see of a guide, numbered 1, 2, 3… per guide.
 * Rows are inserted, and deleted only past RELEASES_KEPT (never the newest); the newest number is
 * the current release.
 */
export interface ReleasesTable {
  id: string;
  guide_id: string;
  number: number;
  /** sha256 of the snapshot's JSON: equal hashes mean nothing buyers see changed. */
  content_hash: string;
  /** JSON Snapshot (snapshot.ts). */
  snapshot: string;
  /**
   * JSON RowHashes (snapshot.ts): each row's hash, so the next publish compares hashes instead of
   * reading this snapshot back. Every release has them (migration 0013 filled the older ones).
   */
  row_hashes: string;
  /** JSON of the sales page this release shows buyers; null when it has none. */
  sales_page: string | null;
  /** The key that published it; null for the studio's first release. */
  key_id: string | null;
  created_at: number;
}

/**
 * The photo files a release names, one row per blob key: a file stays as long as a release names
 * it, whatever happens to the rows of the working copy (releases are immutable, and a kept one may
 * be restored). Written with the release, deleted with it.
 */
export interface ReleaseFilesTable {
  release_id: string;
  guide_id: string;
  blob_key: string;
}

/**
 * The working copy a release was published from: every tracked table's rows of the guide as they
 * stood (release-image.ts), so that restore_release gives back exactly what it held. Written with
 * the release; releases published before it have none.
 */
export interface ReleaseImagesTable {
  release_id: string;
  /** JSON ReleaseCounts: what buyers of the release could open, by kind. */
  counts: string;
  /** gzip of the WorkingImage's text (image-format.ts): a row a line, or one JSON document before 2026-11-28. */
  image: Uint8Array;
}
