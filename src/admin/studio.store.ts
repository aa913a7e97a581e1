import { newId } from '../core/new-id.ts';
import { ScopedStore } from '../core/stores.ts';
import type { GuidesTable } from '../db/tables.ts';
import { updateGuideRow } from '../resources/guides/guide-row.ts';
import { PreviewLinksStore } from '../resources/preview/index.ts';

export type GuideStatus = GuidesTable['status'];
export type StoreReviewStatus = NonNullable<GuidesTable['store_review_status']>;

export interface CreatorListing {
  creatorId: string;
  email: string;
  displayName: string;
  active: boolean;
  agreementAccepted: boolean;
  createdAt: number;
  /** Keys neither revoked nor expired. */
  workingKeys: number;
}

/**
 * The studio's moves on guides and purchases: putting on sale, store visibility, the store review
 * and recorded sales. They are not API writes, so they leave `last_api_write_at` alone.
 * Each method answers undefined when no guide has the id.
 */
export class StudioStore extends ScopedStore {
  /**
   * Moves a guide to a status; the first move to `published` stamps `published_at`, later ones keep
   * it. Archiving ends the guide's preview links for good: restoring it does not bring them back.
   */
  async setStatus(
    guideId: string,
    status: GuideStatus,
  ): Promise<{ productId: string; status: GuideStatus; publishedAt: number | null } | undefined> {
    const now = this.clock.now();
    const result = await updateGuideRow(this.db, guideId, (eb) => ({
      status,
      updated_at: now,
      ...(status === 'published' ? { published_at: eb.fn.coalesce('published_at', eb.val(now)) } : {}),
    })).executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return undefined;
    if (status === 'archived') {
      await new PreviewLinksStore({ db: this.db, clock: this.clock, dialect: this.dialect }).endForGuide(guideId);
    }
    const row = await this.db
      .selectFrom('guides')
      .select(['id', 'status', 'published_at'])
      .where('id', '=', guideId)
      .executeTakeFirstOrThrow();
    return {
      productId: row.id,
      status: row.status,
      publishedAt: row.published_at === null ? null : Number(row.published_at),
    };
  }

  /** The creator a guide belongs to; the guide exists (the caller just moved it). */
  async creatorOf(guideId: string): Promise<string> {
    const row = await this.db
      .selectFrom('guides')
      .select('creator_id')
      .where('id', '=', guideId)
      .executeTakeFirstOrThrow();
    return row.creator_id;
  }

  async setVisibility(
    guideId: string,
    visible: boolean,
  ): Promise<{ productId: string; visibleOnStore: boolean } | undefined> {
    const result = await updateGuideRow(this.db, guideId, () => ({
      visible_on_store: visible ? 1 : 0,
      updated_at: this.clock.now(),
    })).executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return undefined;
    return { productId: guideId, visibleOnStore: visible };
  }

  /** Sets the store review; the note is cleared when none is given. */
  async setReview(
    guideId: string,
    status: StoreReviewStatus,
    note: string | null,
  ): Promise<{ productId: string; storeReviewStatus: StoreReviewStatus; storeReviewNote: string | null } | undefined> {
    const result = await updateGuideRow(this.db, guideId, () => ({
      store_review_status: status,
      store_review_note: note,
      updated_at: this.clock.now(),
    })).executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return undefined;
    return { productId: guideId, storeReviewStatus: status, storeReviewNote: note };
  }

  /** Every creator account, oldest first, with how many of its keys work now (not revoked, not expired). */
  async listCreators(): Promise<CreatorListing[]> {
    const now = this.clock.now();
    const rows = await this.db
      .selectFrom('creators')
      .select((eb) => [
        'id',
        'email',
        'display_name',
        'active',
        'agreement_accepted',
        'created_at',
        eb
          .selectFrom('api_keys')
          .select(eb.fn.countAll().as('n'))
          .whereRef('api_keys.creator_id', '=', 'creators.id')
          .where('revoked_at', 'is', null)
          .where((k) => k.or([k('expires_at', 'is', null), k('expires_at', '>', now)]))
          .as('working_keys'),
      ])
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map((r) => ({
      creatorId: r.id,
      email: r.email,
      displayName: r.display_name,
      active: r.active === 1,
      agreementAccepted: r.agreement_accepted === 1,
      createdAt: Number(r.created_at),
      workingKeys: Number(r.working_keys ?? 0),
    }));
  }

  /** Records one purchase of the guide, so it counts as sold. */
  async recordSale(guideId: string): Promise<{ productId: string; purchaseId: string } | undefined> {
    const guide = await this.db.selectFrom('guides').select('id').where('id', '=', guideId).executeTakeFirst();
    if (!guide) return undefined;
    const purchaseId = newId('pur');
    await this.db
      .insertInto('purchases')
      .values({ id: purchaseId, guide_id: guideId, created_at: this.clock.now() })
      .execute();
    return { productId: guideId, purchaseId };
  }
}
