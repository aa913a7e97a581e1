import { z } from 'zod';
import { defineOperation } from '../../core/operation.ts';
import { productIdSchema } from '../../shared/id-fields.ts';
import { previewExamples } from './examples.ts';

/** The first revision of the service that has this operation (issue 20: the studio). */
export const SINCE_STUDIO = '2026-11-25';

export const createPreviewLink = defineOperation({
  name: 'create_preview_link',
  title: 'Preview link',
  method: 'POST',
  path: '/guides/{productId}/preview-link',
  scope: 'read',
  stability: 'beta',
  since: SINCE_STUDIO,
  example: previewExamples.create_preview_link,
  description:
    'A one-hour link to the guide as buyers will see it after the next publish, for the creator. Publishes nothing.',
  input: z.strictObject({ productId: productIdSchema }),
  output: z.object({
    productId: z.string(),
    url: z.string(),
    expiresAt: z.number().describe('Unix ms'),
  }),
  async handler({ productId }, ctx) {
    const guide = await ctx.guide(productId);
    const { token, expiresAt } = await ctx.stores.previewLinks.create(guide.id, ctx.principal.creatorId);
    return { productId: guide.id, url: `${ctx.urls.studioUrl}/preview?token=${token}`, expiresAt };
  },
});

export const previewOperations = [createPreviewLink];
