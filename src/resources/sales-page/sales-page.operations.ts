import { z } from 'zod';
import { defineOperation, type OperationContext } from '../../core/operation.ts';
import { type EditedRecord, requireFresh } from '../../core/stale-editor.ts';
import { STABLE_SINCE } from '../../core/versions.ts';
import { productIdSchema } from '../../shared/id-fields.ts';
import { salesPageExamples } from './examples.ts';
import { normaliseSalesPage } from './sales-page.input.ts';
import { type SalesPageContent, salesPageDraftSchema, salesPageFields, salesPageSchema } from './sales-page.schema.ts';

/**
 * The live page as its release holds it (releases are immutable, and buyers see its photos until the
 * next publish), with the photos it shows that have been deleted from the guide since.
 */
async function withDeletedPhotos(ctx: OperationContext, guideId: string, live: SalesPageContent) {
  const shown = [...(live.heroMediaId === null ? [] : [live.heroMediaId]), ...live.gallery.map((p) => p.mediaId)];
  const present = await ctx.stores.media.photoIdsAmong(guideId, shown);
  return { ...live, deletedMediaIds: shown.filter((id) => !present.has(id)) };
}

export const getSalesPage = defineOperation({
  name: 'get_sales_page',
  title: 'Get the sales page',
  method: 'GET',
  path: '/guides/{productId}/sales-page',
  scope: 'read',
  stability: 'stable',
  since: STABLE_SINCE,
  example: salesPageExamples.get_sales_page,
  description:
    'Reads the sales page: live is what buyers see (from the current release; null before the first publish), ' +
    'draft the working copy with its updatedAt (null before the first save). Read it before saving the draft.',
  input: z.strictObject({ productId: productIdSchema }),
  output: salesPageSchema,
  async handler({ productId }, ctx) {
    const guide = await ctx.guide(productId);
    const [live, draft] = await Promise.all([
      // Buyers see the sales page the current release carries; none before the first publish.
      ctx.stores.releases.currentSalesPage(guide.id) as Promise<SalesPageContent | null>,
      ctx.stores.salesPage.draftOf(guide.id),
    ]);
    return { productId: guide.id, live: live && (await withDeletedPhotos(ctx, guide.id, live)), draft };
  },
});

/** What a stale_editor answer to a draft save says; before the first save there is no draft. */
const draftEdits: EditedRecord = {
  name: 'sales page draft',
  readWith: 'get_sales_page',
  resend: 'save',
  absent: 'null: no draft',
};

export const saveSalesPageDraft = defineOperation({
  name: 'save_sales_page_draft',
  title: 'Save the sales page draft',
  method: 'PUT',
  path: '/guides/{productId}/sales-page/draft',
  scope: 'write',
  stability: 'stable',
  since: STABLE_SINCE,
  errors: ['stale_editor'],
  example: salesPageExamples.save_sales_page_draft,
  description:
    'Replaces the sales page draft whole (a field left out is cleared); never publishes: buyers see it after the ' +
    // Which photos and spots it takes, and how credits show, are the fields' own notes.
    'next publish. Send expectedUpdatedAt from get_sales_page (null when draft was null); on stale_editor ' +
    'read again and merge, never overwrite.',
  input: z.strictObject({
    productId: productIdSchema,
    ...salesPageFields,
    expectedUpdatedAt: z
      .number()
      .int()
      .min(0)
      .nullable()
      .optional()
      .describe(
        "The draft's updatedAt from your last read or save, or null if there was no draft; on a change since: 409",
      ),
  }),
  output: z.object({ productId: z.string(), draft: salesPageDraftSchema }),
  async handler({ productId, expectedUpdatedAt, ...fields }, ctx) {
    const guide = await ctx.guide(productId);
    const current = await ctx.stores.salesPage.draftOf(guide.id);
    requireFresh(draftEdits, current?.updatedAt ?? null, expectedUpdatedAt);
    await ctx.stores.salesPage.save(guide.id, await normaliseSalesPage(ctx, guide.id, fields, current));
    return { productId: guide.id, draft: (await ctx.stores.salesPage.draftOf(guide.id))! };
  },
});

export const salesPageOperations = [getSalesPage, saveSalesPageDraft];
