import { newId } from '../../core/ids.ts';
import { ScopedStore } from '../../core/stores.ts';
import { guideAtAddress } from './release-addresses.ts';
import type { Snapshot } from './snapshot.ts';

/** A release as the store reads it back, without its snapshot. */
export interface ReleaseInfo {
  number: number;
  publishedAt: number;
  keyId: string | null;
  contentHash: string;
}

export interface Release extends ReleaseInfo {
  snapshot: Snapshot;
}

/** Releases are written once and never changed; all SQL about them lives here. */
export class ReleasesStore extends ScopedStore {
  /** The newest release of a guide without its content: enough to tell whether anything changed. */
  async latestInfo(guideId: string): Promise<ReleaseInfo | undefined> {
    const row = await this.db
      .selectFrom('releases')
      .select(['number', 'created_at', 'key_id', 'content_hash'])
      .where('guide_id', '=', guideId)
      .orderBy('number', 'desc')
      .limit(1)
      .executeTakeFirst();
    return (
      row && {
        number: Number(row.number),
        publishedAt: Number(row.created_at),
        keyId: row.key_id,
        contentHash: row.content_hash,
      }
    );
  }

  /** What buyers see of a guide: its newest release, or undefined when it was never published. */
  async current(guideId: string): Promise<Release | undefined> {
    const row = await this.db
      .selectFrom('releases')
      .select(['number', 'created_at', 'key_id', 'content_hash', 'snapshot'])
      .where('guide_id', '=', guideId)
      .orderBy('number', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      number: Number(row.number),
      publishedAt: Number(row.created_at),
      keyId: row.key_id,
      contentHash: row.content_hash,
      snapshot: JSON.parse(row.snapshot) as Snapshot,
    };
  }

  /** Writes the next release; the caller holds the guide's lock, so the number cannot be taken twice. */
  async insert(guideId: string, snapshot: string, contentHash: string, keyId: string | null): Promise<ReleaseInfo> {
    const latest = await this.latestInfo(guideId);
    const number = (latest?.number ?? 0) + 1;
    const now = this.clock.now();
    await this.db
      .insertInto('releases')
      .values({
        id: newId('rel'),
        guide_id: guideId,
        number,
        content_hash: contentHash,
        snapshot,
        key_id: keyId,
        created_at: now,
      })
      .execute();
    return { number, publishedAt: now, keyId, contentHash };
  }

  /**
   * The guide at a sales-page address (creator slug, guide slug): its id, its status and the
   * number of its newest release (null when never published). One indexed query, compiled once:
   * the buyers' page asks it on every request.
   */
  async atAddress(
    creatorSlug: string,
    guideSlug: string,
  ): Promise<{ guideId: string; status: string; releaseNumber: number | null } | undefined> {
    const [row] = await guideAtAddress(this.db, creatorSlug, guideSlug);
    return (
      row && {
        guideId: row.id,
        status: row.status,
        releaseNumber: row.release_number === null ? null : Number(row.release_number),
      }
    );
  }
}
