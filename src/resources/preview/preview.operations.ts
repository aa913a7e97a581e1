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
  scope: 'write',
  stability: 'beta',
  since: SINCE_STUDIO,
  example: previewExamples.create_preview_link,
  description:
    'A one-hour link to the guide as buyers will see it after the next publish, for the creator. Publishes nothing. ' +
    'Anyone holding the link sees the working copy: give it to the creator only. It ends when the creator ends it ' +
    'in the studio, archives the guide, or revokes the key (or disconnects the assistant) that made it.',
  input: z.strictObject({ productId: productIdSchema }),
  output: z.object({
    productId: z.string(),
    url: z.string(),
    expiresAt: z.number().describe('Unix ms'),
  }),
  // Opened as a read: a link changes nothing of the guide, so neither its updatedAt nor its revision moves.
  prepare: ({ productId }, ctx) => ctx.guide(productId),
  async handler(_input, ctx, guide) {
    const { principal } = ctx;
    const { token, expiresAt } = await ctx.stores.previewLinks.create(guide.id, principal.creatorId, principal.keyId);
    return { productId: guide.id, url: `${ctx.urls.studioUrl}/preview?token=${token}`, expiresAt };
  },
});

export const previewOperations = [createPreviewLink];
