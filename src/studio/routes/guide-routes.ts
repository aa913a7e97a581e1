import type { FastifyInstance } from 'fastify';
import { putOnSale } from '../../admin/go-live.ts';
import { StudioStore } from '../../admin/studio.store.ts';
import { ApiError } from '../../core/errors.ts';
import type { Guide } from '../../resources/guides/index.ts';
import { recordOf } from '../../resources/guides/index.ts';
import type { PreviewLinkListing } from '../../resources/preview/index.ts';
import { blockingGates, type Gate, readGuideContents, readinessOf } from '../../resources/publishing/index.ts';
import { html, type Markup } from '../../resources/sales-page/index.ts';
import { requireSignedIn, type SignedIn, type StudioDeps, signedInLayout, studioStores } from '../context.ts';
import { csrfField, dateTime, message, sendPage } from '../web/page.ts';
import { field, seeOther } from '../web/security.ts';

type Status = Guide['status'];

const NOTICES: Record<string, string> = {
  published: 'The guide is on sale: its sales page shows this release.',
  draft: 'The guide is off sale: buyers can no longer find its sales page.',
  archived: 'The guide is archived.',
  shown: 'The guide is shown in the store once it is on sale (after the store review).',
  hidden: 'The guide is hidden from the store; its sales page still works by its address.',
  'link-ended': 'The preview link is ended: it no longer opens the guide.',
};

function price(guide: Guide): string {
  if (!guide.price) return 'no price';
  const { amountMinor, currency } = guide.price;
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency: currency.toUpperCase() }).format(
      amountMinor / 100,
    );
  } catch {
    return `${amountMinor} ${currency}`;
  }
}

function statusButton(guide: Guide, csrf: string, to: Status, label: string, kind = ''): Markup {
  return html`<form method="post" action="/studio/guides/${encodeURIComponent(guide.productId)}/status">${csrfField(csrf)}<input type="hidden" name="to" value="${to}"><button class="${kind}" type="submit">${label}</button></form>`;
}

/** The guide's working preview links, each with who made it and a button that ends it. */
function previewLinks(guide: Guide, csrf: string, links: readonly PreviewLinkListing[]): Markup {
  if (links.length === 0) return html``;
  const id = encodeURIComponent(guide.productId);
  return html`<div class="preview-links"><p><strong>Preview links that work now</strong> (anyone holding one sees the working copy):</p><ul>${links.map(
    (link) =>
      html`<li data-link-id="${link.linkId}">Made by ${link.madeBy} at ${dateTime(link.createdAt)}, works until ${dateTime(link.expiresAt)} <form method="post" action="/studio/guides/${id}/preview-links/${encodeURIComponent(link.linkId)}/end">${csrfField(csrf)}<button class="danger" type="submit">End link</button></form></li>`,
  )}</ul></div>`;
}

function guideCard(
  guide: Guide,
  csrf: string,
  gates: Gate[] | undefined,
  links: readonly PreviewLinkListing[],
): Markup {
  const id = encodeURIComponent(guide.productId);
  const live = guide.status === 'published';
  const actions: Markup[] = [];
  if (guide.status !== 'published') actions.push(statusButton(guide, csrf, 'published', 'Put on sale'));
  if (guide.status === 'published') actions.push(statusButton(guide, csrf, 'draft', 'Take off sale', 'quiet'));
  if (guide.status === 'archived') actions.push(statusButton(guide, csrf, 'draft', 'Restore as draft', 'quiet'));
  else actions.push(statusButton(guide, csrf, 'archived', 'Archive', 'danger'));
  const visibility = html`<form method="post" action="/studio/guides/${id}/visibility">${csrfField(csrf)}<input type="hidden" name="visible" value="${guide.visibleOnStore ? 'off' : 'on'}"><button class="quiet" type="submit">${guide.visibleOnStore ? 'Hide from store' : 'Show in store'}</button></form>`;
  const blocking =
    gates && gates.length > 0
      ? html`<div class="error" role="alert"><p><strong>Before it can go on sale:</strong></p><ul class="findings">${gates.map(
          (g) => html`<li data-code="${g.code}"><code>${g.code}</code>: ${g.message}</li>`,
        )}</ul></div>`
      : html``;
  return html`<section class="card" data-guide-id="${guide.productId}">
<h2>${guide.name}</h2>
<p><span class="tag${live ? ' live' : ''}" data-status>${live ? 'on sale' : guide.status}</span><span class="tag" data-visibility>${guide.visibleOnStore ? 'shown in store' : 'not in store'}</span>${guide.storeReviewStatus ? html`<span class="tag">review: ${guide.storeReviewStatus}</span>` : html``}</p>
<p>${price(guide)} · ${guide.spotCount} ${guide.spotCount === 1 ? 'spot' : 'spots'}</p>
<p><a href="/studio/guides/${id}/preview">Preview the working copy</a> · <a href="/studio/guides/${id}/history">History</a> · <a href="/studio/guides/${id}/files">Import a file or download</a>${live ? html` · <a href="${guide.salesPageUrl}">Sales page</a>` : html``}</p>
${blocking}
${previewLinks(guide, csrf, links)}
<div class="actions">${actions}${visibility}</div>
</section>`;
}

/** The guides page: each guide's status, what blocks it from going on sale, store visibility, archiving. */
export function registerGuideRoutes(app: FastifyInstance, deps: StudioDeps): void {
  const { runtime } = deps;

  async function page(
    who: SignedIn,
    note: { notice?: string; error?: string; refused?: { id: string; gates: Gate[] } },
  ) {
    const { stores } = studioStores(runtime);
    const rows = await stores.guides.recordRowsOwned(who.creator.creatorId);
    const guides = rows.map((row) => recordOf(row, runtime.urls));
    const today = runtime.clock.today();
    // What blocks each guide not yet on sale, as putting it on sale would find it.
    const gates = new Map<string, Gate[]>();
    for (const guide of guides) {
      if (note.refused?.id === guide.productId) gates.set(guide.productId, note.refused.gates);
      else if (guide.status === 'draft') {
        const contents = await readGuideContents(stores, guide.productId, who.creator.creatorId);
        gates.set(guide.productId, blockingGates(contents, readinessOf(contents, today), { needsLive: false }));
      }
    }
    const links = Map.groupBy(await stores.previewLinks.listWorking(who.creator.creatorId), (link) => link.guideId);
    const agreement = who.creator.agreementAccepted
      ? html``
      : html`<p class="error" role="alert">Accept the <a href="/studio/agreement">creator agreement</a> before you set prices or put a guide on sale.</p>`;
    const body = html`<h1>Guides</h1>
${message('notice', note.notice)}${message('error', note.error)}${agreement}
${guides.length === 0 ? html`<p>No guides yet. Ask your assistant to start one, with a key from <a href="/studio/keys">API keys</a>.</p>` : guides.map((g) => guideCard(g, who.csrf, gates.get(g.productId), links.get(g.productId) ?? []))}`;
    return { title: 'Guides', signedIn: signedInLayout(who, 'guides'), body };
  }

  /** The guide, when it is the signed-in creator's: another's is as unknown as a missing one. */
  async function owned(who: SignedIn, productId: string): Promise<boolean> {
    return studioStores(runtime).stores.guides.isOwned(who.creator.creatorId, productId);
  }

  app.get('/guides', async (request, reply) => {
    const who = await requireSignedIn(deps, request, reply);
    if (!who) return reply;
    const done = (request.query as Record<string, unknown>).done;
    const notice = typeof done === 'string' && Object.hasOwn(NOTICES, done) ? NOTICES[done] : undefined;
    return sendPage(reply, await page(who, { notice }));
  });

  app.post<{ Params: { productId: string } }>('/guides/:productId/status', async (request, reply) => {
    const who = await requireSignedIn(deps, request, reply);
    if (!who) return reply;
    const { productId } = request.params;
    const to = field(request.body, 'to');
    if (!(await owned(who, productId)))
      return sendPage(reply, await page(who, { error: 'No such guide of yours.' }), 404);
    if (to !== 'published' && to !== 'draft' && to !== 'archived') {
      return sendPage(reply, await page(who, { error: 'Choose on sale, draft or archived.' }), 400);
    }
    if (to === 'published') {
      try {
        await putOnSale(runtime, runtime.clock, productId);
      } catch (err) {
        if (!(err instanceof ApiError && err.code === 'not_publishable')) throw err;
        const gates = (err.details?.blocking ?? []) as Gate[];
        const refused = { id: productId, gates };
        return sendPage(
          reply,
          await page(who, { error: 'The guide cannot go on sale yet: see what blocks it below.', refused }),
          409,
        );
      }
    } else {
      await new StudioStore({ db: runtime.db, clock: runtime.clock, dialect: runtime.dialect }).setStatus(
        productId,
        to,
      );
    }
    return seeOther(reply, `/studio/guides?done=${to}`);
  });

  app.post<{ Params: { productId: string } }>('/guides/:productId/visibility', async (request, reply) => {
    const who = await requireSignedIn(deps, request, reply);
    if (!who) return reply;
    const { productId } = request.params;
    const visible = field(request.body, 'visible');
    if (!(await owned(who, productId)))
      return sendPage(reply, await page(who, { error: 'No such guide of yours.' }), 404);
    if (visible !== 'on' && visible !== 'off')
      return sendPage(reply, await page(who, { error: 'Choose shown or hidden.' }), 400);
    await new StudioStore({ db: runtime.db, clock: runtime.clock, dialect: runtime.dialect }).setVisibility(
      productId,
      visible === 'on',
    );
    return seeOther(reply, `/studio/guides?done=${visible === 'on' ? 'shown' : 'hidden'}`);
  });
}
