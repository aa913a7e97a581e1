import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.ts';

/** A guide the caller owns, as handlers see it before they read anything else of it. */
export interface OwnedGuide {
  id: string;
  creatorId: string;
  slug: string;
  name: string;
  /** For a write: the revision its stamp moved the guide to (the place of the write's change, core/history.ts). */
  revision?: number;
}

/** A write's change, which takes its name from the first guide the write opens (core/history.ts, OpenChange). */
export interface NamedByItsGuide {
  /**
   * Tells it the write opened its guide, at the revision the write's stamp moved it to: the
   * embedded store names the change after both.
   */
  opened(guide: { id: string; revision: number }): void;
}

/**
 * How the core reaches a caller's guide without knowing the guides resource, which supplies it.
 * Cached read views are keyed by a guide's revision, so every write that changes a guide or any
 * of its contents must move it: opening a guide for a write does that, once per call.
 */
export interface GuideAccess {
  /**
   * The guide if this creator owns it, else `not_found` (the same for another creator's guide as
   * for a missing one). For a write (`changedAt` given) the guide is stamped as changed by a key
   * at that time and its revision moves, in one statement that also locks its row until the
   * transaction ends: writers of one guide queue instead of racing through check-then-insert.
   */
  open(
    db: Kysely<Database>,
    creatorId: string,
    productId: string,
    changedAt?: number,
    /** The write's change, told of the guide as soon as it is stamped. */
    change?: NamedByItsGuide,
  ): Promise<OwnedGuide>;
}
