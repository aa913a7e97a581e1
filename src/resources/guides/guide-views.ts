import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import { notFound } from '../../core/errors.ts';
import { jsonOf } from '../../core/json.ts';
import { countCache } from '../../core/work-meter.ts';
import { asideConnections, SharedReads } from '../../db/aside-reads.ts';
import { directReaders } from '../../db/database.ts';
import { prepared } from '../../db/prepared.ts';
import type { Database } from '../../db/tables.ts';

/** The views of one guide kept at one revision, and the bytes of their JSON. */
interface KeptViews {
  revision: number;
  views: Map<string, object>;
  bytes: number;
}

/** A guide's id and revision, as read from the store. */
interface RevisionRow {
  id: string;
  revision: number;
}

/** A guide's revision and owner, as the shared reads of PostgreSQL's aside connection return it. */
interface OwnerRow extends RevisionRow {
  creator_id: string;
}

/** Guides' revisions and owners by id, for every call that asked at once (db/aside-reads.ts). */
const REVISIONS_OF = 'select id, creator_id, revision from guides where id = any($1)';

const revisionOf = prepared<RevisionRow>('guide revision', (db) =>
  db.selectFrom('guides').select(['id', 'revision']).where('id', '=', '').where('creator_id', '=', ''),
);

/**
 * Another view of the same guide at the same revision, for a build that shares a part with other
 * views (a list's total, shared by all its pages): the revision was just read, so it is not again.
 */
export type SiblingView = <U extends object>(view: string, build: () => Promise<U>) => Promise<U>;

/**
 * Read views of guides (a record, a spot list…) built once and served again while the guide's
 * revision stands still: one app's, on its one store (`Caches.guideViews`). Every write to a guide
 * or its contents bumps the revision, so a view is only ever served for the state it was built
 * from; another app, even on a copy of the store where the same guide reaches the same revision
 * with other contents, keeps views of its own.
 */
export class GuideViewCache {
  /**
   * Only the newest revision seen of a guide is kept: views of an older one are never served
   * again, and keeping them until the size bound pushed them out held hundreds of megabytes that
   * every major garbage collection walked. Bounded by the size of their JSON.
   */
  private readonly guides = new LRUCache<string, KeptViews>({
    maxSize: 64 * 1024 * 1024,
    sizeCalculation: (kept) => Math.max(1, kept.bytes),
  });

  /**
   * Revisions read from the store, with the commit stamp they were read under (embedded store only).
   * While the stamp stands still no connection has committed anything, so the revision still holds
   * and the query is skipped: the check costs a pread instead of a read transaction's locks.
   */
  private readonly confirmed = new LRUCache<string, { stamp: string; row: RevisionRow }>({ max: 10_000 });

  /** Views being built now, by guide, revision and view: a second call for one waits for it. */
  private readonly building = new Map<string, Promise<object>>();

  /** Revisions read for many calls at once, per store (PostgreSQL only: sharedRevisionsOf). */
  private readonly sharedRevisions = new WeakMap<object, SharedReads<OwnerRow>>();

  /**
   * The view named `view` of the caller's guide, from memory when its revision has not moved. For
   * reads outside a transaction only: inside one, a view could describe writes that roll back.
   * A guide of another creator is the same 404 as a missing one. `arrival`: the read-only call's
   * (StoreScope), whose key check read the commit stamp already.
   */
  view<T extends object>(
    db: Kysely<Database>,
    creatorId: string,
    productId: string,
    view: string,
    build: (guideId: string, sibling: SiblingView) => Promise<T>,
    arrival?: number,
  ): T | Promise<T> {
    const key = `${productId} ${creatorId}`;
    // Taken before the query, so that a commit landing in between moves the stamp for next time.
    const stamp = directReaders.get(db)?.commitStampSince(arrival);
    if (stamp !== undefined) {
      const known = this.confirmed.get(key);
      const hit = known !== undefined && known.stamp === stamp;
      countCache('guide_revisions', { hit });
      // Answered without a promise when both the revision and the view are known: each await
      // would be a turn of the microtask queue for a call that needs none.
      if (hit) return this.viewOf(known.row, view, build);
    }
    return this.readRevision(db, creatorId, productId, key, stamp).then((row) => {
      if (!row) throw notFound('guide', productId);
      return this.viewOf(row, view, build);
    });
  }

  /** The guide's revision from the store (kept under `stamp`, when there is one). */
  private async readRevision(
    db: Kysely<Database>,
    creatorId: string,
    productId: string,
    key: string,
    stamp: string | undefined,
  ): Promise<RevisionRow | undefined> {
    const shared = await this.sharedRevisionsOf(db)?.get(productId);
    if (shared !== undefined) {
      return shared?.creator_id === creatorId ? { id: shared.id, revision: shared.revision } : undefined;
    }
    const [row] = await revisionOf(db, productId, creatorId);
    if (row && stamp !== undefined) this.confirmed.set(key, { stamp, row });
    return row;
  }

  /**
   * PostgreSQL (outside a transaction): revisions read on the store's aside connection, one
   * statement for all the calls that asked meanwhile, instead of a pool connection and a round trip
   * each. Exact as the query it replaces: each statement is sent after the calls it answers came.
   */
  private sharedRevisionsOf(db: Kysely<Database>): SharedReads<OwnerRow> | undefined {
    let shared = this.sharedRevisions.get(db);
    if (!shared) {
      const aside = asideConnections.get(db);
      if (!aside) return undefined;
      shared = new SharedReads<OwnerRow>(aside, REVISIONS_OF, (row) => row.id);
      this.sharedRevisions.set(db, shared);
    }
    return shared;
  }

  private viewOf<T extends object>(
    row: RevisionRow,
    view: string,
    build: (guideId: string, sibling: SiblingView) => Promise<T>,
  ): T | Promise<T> {
    const kept = this.guides.get(row.id);
    const cached = kept?.revision === row.revision ? (kept.views.get(view) as T | undefined) : undefined;
    countCache('guide_views', { hit: cached !== undefined });
    if (cached) return cached;
    // Calls that ask for one view at one revision together share its build, as they would share
    // it once kept: fifty clients walking a list in step after an edit build each page once.
    const buildKey = `${row.id} ${row.revision} ${view}`;
    const underWay = this.building.get(buildKey);
    if (underWay) return underWay as Promise<T>;
    const building = (async () => {
      const built = Object.freeze(await build(row.id, async (other, make) => this.viewOf(row, other, make)));
      this.keep(row, view, built);
      return built;
    })();
    this.building.set(buildKey, building);
    const done = () => this.building.delete(buildKey);
    building.then(done, done);
    return building;
  }

  /** Keeps a view beside its guide's others at its revision; one built at an older revision than kept is not kept. */
  private keep(row: RevisionRow, view: string, built: object): void {
    const kept = this.guides.get(row.id);
    if (kept !== undefined && kept.revision > row.revision) return;
    const same = kept?.revision === row.revision ? kept : undefined;
    // Two builds of one view at once: the first one kept stays.
    if (same?.views.has(view)) return;
    const views = same?.views ?? new Map<string, object>();
    views.set(view, built);
    const bytes = (same?.bytes ?? 0) + jsonOf(built).length;
    // A new entry each time, so that the cache measures it again.
    this.guides.set(row.id, { revision: row.revision, views, bytes });
  }
}
