import type { FastifyInstance, FastifyReply } from 'fastify';
import { renderPreview } from '../../resources/preview/index.ts';
import { html } from '../../resources/sales-page/index.ts';
import { requireSignedIn, type StudioDeps, studioStores } from '../context.ts';
import { dateTime, sendPage, studioHeaders } from '../web/page.ts';

const GONE = html`<h1>This preview link has expired</h1>
<p class="error" role="alert">Preview links work for an hour. Ask your assistant for a new one, or open the guide's preview from the studio.</p>
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
