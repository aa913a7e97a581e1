import { z } from 'zod';
import { defineOperation } from '../../core/operation.ts';
import { productIdSchema } from '../../shared/ids.ts';
import { previewExamples } from './examples.ts';

/** The first revision of the service that has this operation (issue 20: the studio). */
export const SINCE_STUDIO = '2026-11-25';

export const createPreviewLink = defineOperation({
  name: 'create_preview_link',
  title: 'Create a preview link',
  method: 'POST',
  path: '/guides/{productId}/preview-link',
  scope: 'read',
  stability: 'beta',
  since: SINCE_STUDIO,
  example: previewExamples.create_preview_link,
  description:
    'Answers a link to the guide as buyers would see it after the next publish: the sales page and everything ' +
    'inside (chapters and pages, spots on a map, itineraries, hikes with tracks, places, area rules and fees, ' +
    'photos with credits), from the working copy. Hand it to the creator to review before publishing. The link ' +
    'needs no sign-in, works for one hour, and shows only this guide; nothing is published.',
  input: z.strictObject({ productId: productIdSchema }),
  output: z.object({
    productId: z.string(),
    url: z.string().describe('Open in a browser; no sign-in needed until it expires'),
    expiresAt: z.number().describe('Unix ms; ask for a new link after it'),
  }),
  async handler({ productId }, ctx) {
    const guide = await ctx.guide(productId);
    const { token, expiresAt } = await ctx.stores.previewLinks.create(guide.id, ctx.principal.creatorId);
    return { productId: guide.id, url: `${ctx.urls.studioUrl}/preview?token=${token}`, expiresAt };
  },
});

export const previewOperations = [createPreviewLink];
