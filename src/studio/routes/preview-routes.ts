import type { FastifyInstance, FastifyReply } from 'fastify';
import { renderPreview } from '../../resources/preview/index.ts';
import { html } from '../../resources/sales-page/index.ts';
import { requireSignedIn, type StudioDeps, studioStores } from '../context.ts';
import { dateTime, sendPage, studioHeaders } from '../web/page.ts';
import { seeOther } from '../web/security.ts';

const GONE = html`<h1>This preview link has ended</h1>
<p class="error" role="alert">Preview links work for an hour, and end sooner when the guide is archived, the key or assistant that made the link is revoked, or the link is ended in the studio. Ask your assistant for a new one, or open the guide's preview from the studio.</p>
<p><a href="/studio/guides">Go to your guides</a></p>`;

/** The preview page: the working copy as buyers would see it, from the studio or from a link the assistant made. */
export function registerPreviewRoutes(app: FastifyInstance, deps: StudioDeps): void {
  const { runtime } = deps;

  async function send(reply: FastifyReply, guideId: string, creatorId: string, banner: string) {
    const { stores } = studioStores(runtime);
    const preview = await renderPreview(stores, guideId, creatorId, runtime.urls, banner);
    return studioHeaders(reply, preview.contentSecurityPolicy, 'no-referrer')
      .type('text/html; charset=utf-8')
      .send(preview.html);
  }

  app.get<{ Params: { productId: string } }>('/guides/:productId/preview', async (request, reply) => {
    const who = await requireSignedIn(deps, request, reply);
    if (!who) return reply;
    const { stores } = studioStores(runtime);
    const owned = await stores.guides.isOwned(who.creator.creatorId, request.params.productId);
    if (!owned) {
      const body = html`<h1>No such guide</h1><p>There is no guide of yours with this address.</p><p><a href="/studio/guides">Your guides</a></p>`;
      return sendPage(reply, { title: 'Not found', body }, 404);
    }
    return send(
      reply,
      request.params.productId,
      who.creator.creatorId,
      'Preview of your working copy: buyers see this after your next publish.',
    );
  });

  app.post<{ Params: { productId: string; linkId: string } }>(
    '/guides/:productId/preview-links/:linkId/end',
    async (request, reply) => {
      const who = await requireSignedIn(deps, request, reply);
      if (!who) return reply;
      // Only the creator's own link: another creator's id is as unknown as a made-up one.
      if (!(await studioStores(runtime).stores.previewLinks.end(request.params.linkId, who.creator.creatorId))) {
        const body = html`<h1>No such preview link</h1><p>It may have ended already.</p><p><a href="/studio/guides">Your guides</a></p>`;
        return sendPage(reply, { title: 'Not found', body }, 404);
      }
      return seeOther(reply, '/studio/guides?done=link-ended');
    },
  );

  app.get('/preview', async (request, reply) => {
    const token = (request.query as Record<string, unknown>).token;
    const link = await studioStores(runtime).stores.previewLinks.open(token);
    if (!link) return sendPage(reply, { title: 'Preview expired', body: GONE }, 410);
    return send(
      reply,
      link.guideId,
      link.creatorId,
      `Preview of the working copy: buyers see this after the next publish. This link works until ${dateTime(link.expiresAt)}.`,
    );
  });
}
