import { sql } from 'kysely';
import { ScopedStore } from '../../core/stores.ts';
import type { SalesPageContent, SalesPageDraft } from './sales-page.schema.ts';

/** The sales page drafts. All SQL about them lives here. */
export class SalesPageStore extends ScopedStore {
  /**
   * The guide's draft as last saved, or null before the first save. The publish step snapshots
   * this into a release; callers must have opened the guide (ctx.guide) first.
   */
  async draftOf(guideId: string): Promise<SalesPageDraft | null> {
    const row = await this.db
      .selectFrom('sales_pages')
      .select(['draft', 'updated_at'])
      .where('guide_id', '=', guideId)
      .executeTakeFirst();
    if (!row) return null;
    return { ...(JSON.parse(row.draft) as SalesPageContent), updatedAt: Number(row.updated_at) };
  }

  /**
   * Replaces the draft whole. updatedAt moves on with every save, even twice in one millisecond,
   * so two quick saves stay distinguishable to an editor comparing them.
   */
  async save(guideId: string, content: SalesPageContent): Promise<void> {
    const now = this.clock.now();
    const draft = JSON.stringify(content);
    await this.db
      .insertInto('sales_pages')
      .values({ guide_id: guideId, draft, created_at: now, updated_at: now })
      .onConflict((oc) =>
        oc.column('guide_id').doUpdateSet({
          draft,
          updated_at: sql<number>`case when sales_pages.updated_at >= ${now} then sales_pages.updated_at + 1 else ${now} end`,
        }),
      )
      .execute();
  }

  /**
   * Takes a photo out of the draft (its hero and its gallery) as a save would, moving updatedAt, so
   * an editor still holding the draft from before gets stale_editor rather than sending it back.
   * Answers the fields it was taken out of, none when the draft did not show it.
   */
  async removePhoto(guideId: string, mediaId: string): Promise<string[]> {
    const draft = await this.draftOf(guideId);
    if (!draft) return [];
    const { updatedAt: _, ...content } = draft;
    const places = content.heroMediaId === mediaId ? ['heroMediaId'] : [];
    content.gallery.forEach((photo, i) => {
      if (photo.mediaId === mediaId) places.push(`gallery[${i}]`);
    });
    if (places.length === 0) return [];
    await this.save(guideId, {
      ...content,
      heroMediaId: content.heroMediaId === mediaId ? null : content.heroMediaId,
      gallery: content.gallery.filter((photo) => photo.mediaId !== mediaId),
    });
    return places;
  }
}
