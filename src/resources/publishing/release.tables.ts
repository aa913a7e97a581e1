/**
 * One release: an immutable snapshot of what buyers see of a guide, numbered 1, 2, 3… per guide.
 * Rows are only ever inserted; the newest number is the current release.
 */
export interface ReleasesTable {
  id: string;
  guide_id: string;
  number: number;
  /** sha256 of the snapshot's JSON: equal hashes mean nothing buyers see changed. */
  content_hash: string;
  /** JSON Snapshot (snapshot.ts). */
  snapshot: string;
  /** The key that published it; null for the studio's first release. */
  key_id: string | null;
  created_at: number;
}
