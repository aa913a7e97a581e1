import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../core/errors.ts';
import { type Call, invoke } from '../../core/invoke.ts';
import { getRelease, listReleases, restoreReleaseOperation } from '../../resources/publishing/index.ts';
import { html, type Markup } from '../../resources/sales-page/index.ts';
import { requireSignedIn, type SignedIn, type StudioDeps, studioStores } from '../context.ts';
import { type HistoryPlace, historyHref, historyPath } from '../history/history-page.ts';
import type { HistoryReplies } from '../history/history-replies.ts';
import { NOT_RESTORABLE, type ReleaseSummary, releaseNumber } from '../history/release-words.ts';
import {
  type DifferencesView,
  differencesBody,
  kindTable,
  releaseFacts,
  releasePath,
  releasesSection,
  restoreForm,
} from '../history/releases-page.ts';
import { message } from '../web/page.ts';
import { field, seeOther } from '../web/security.ts';

type Release = DifferencesView['release'];

const isBadCursor = (err: unknown) => err instanceof ApiError && err.code === 'invalid_argument';

/**
 * The releases section of the History page at `place`, read with list_releases by `call`;
 * undefined when its cursor is not one the page gave (the caller starts the releases again).
 */
export async function releasesSectionAt(
  deps: StudioDeps,
  call: Call,
  who: SignedIn,
  productId: string,
  place: HistoryPlace,
): Promise<Markup | undefined> {
  const input = { productId, ...(place.releases !== undefined && { cursor: place.releases }) };
  let page: { releases: ReleaseSummary[]; nextCursor: string | null };
  try {
    const { result } = await invoke(deps.runtime, listReleases, input, call);
    page = result as unknown as typeof page;
  } catch (err) {
    if (place.releases !== undefined && isBadCursor(err)) return undefined;
    throw err;
  }
  const numbers = page.releases.map((r) => r.release);
  const restorable = await studioStores(deps.runtime).stores.releases.withImages(productId, numbers);
  return releasesSection({
    productId,
    csrf: who.csrf,
    releases: page.releases.map((r) => ({ ...r, restorable: restorable.has(r.release) })),
    ...(place.releases !== undefined && { newestHref: historyHref(productId, { ...place, releases: undefined }) }),
    ...(page.nextCursor && { olderHref: historyHref(productId, { ...place, releases: page.nextCursor }) }),
  });
}

/**
 * A release's page (how the working copy differs from it, get_release paged) and its Restore, which
 * is confirmed on a page of its own and runs restore_release as the studio: one change in the
 * history, undone from the changes section like any other.
 */
export function registerReleaseRoutes(app: FastifyInstance, deps: StudioDeps, replies: HistoryReplies): void {
  const { runtime } = deps;
  const { call, ownedName, send, noSuch } = replies;
  type Params = { productId: string; release: string };

  /** The signed-in creator's guide name and the release number, or the reply already sent (404). */
  async function opened(request: FastifyRequest<{ Params: Params }>, reply: FastifyReply) {
    const who = await requireSignedIn(deps, request, reply);
    if (!who) return undefined;
    const { productId } = request.params;
    const guideName = await ownedName(who, productId);
    const number = releaseNumber(request.params.release);
    if (guideName === undefined || number === undefined) {
      noSuch(reply, who, guideName === undefined ? 'No such guide of yours.' : 'No such release of this guide.');
      return undefined;
    }
    return { who, productId, guideName, number };
  }

  /** get_release as the studio; undefined for a release the guide never had (or a cursor it did not give). */
  async function readRelease(who: SignedIn, request: FastifyRequest, input: Record<string, unknown>) {
    try {
      return (await invoke(runtime, getRelease, input, call(who, request))).result as unknown as Release & {
        nextCursor: string | null;
      };
    } catch (err) {
      if (err instanceof ApiError && (err.code === 'not_found' || isBadCursor(err))) return undefined;
      throw err;
    }
  }

  app.get<{ Params: Params; Querystring: Record<string, unknown> }>(
    '/guides/:productId/history/releases/:release',
    async (request, reply) => {
      const at = await opened(request, reply);
      if (!at) return reply;
      const { who, productId, number } = at;
      const cursor = typeof request.query.cursor === 'string' ? request.query.cursor : undefined;
      const release = await readRelease(who, request, { productId, release: number, ...(cursor && { cursor }) });
      const path = releasePath(productId, number);
      if (!release) {
        // A cursor this page did not give starts from the first records; a release never had is 404.
        if (cursor !== undefined) return seeOther(reply, path);
        return noSuch(reply, who, 'No such release of this guide.');
      }
      const body = differencesBody({
        productId,
        guideName: at.guideName,
        csrf: who.csrf,
        release,
        ...(cursor !== undefined && { firstHref: path }),
        ...(release.nextCursor && { nextHref: `${path}?cursor=${encodeURIComponent(release.nextCursor)}` }),
      });
      return send(reply, who, `Release ${number} of ${at.guideName}`, body);
    },
  );

  app.post<{ Params: Params }>('/guides/:productId/history/releases/:release/restore', async (request, reply) => {
    const at = await opened(request, reply);
    if (!at) return reply;
    const { who, productId, number } = at;
    const back = html`<p><a href="${releasePath(productId, number)}">See how it differs</a> · <a href="${historyPath(productId)}">Back to the history</a></p>`;
    const refused = (title: string, words: string, status: number) =>
      send(reply, who, title, html`<h1>${title}</h1>${message('error', words)}${back}`, status);

    if (field(request.body, 'confirm') !== 'yes') {
      // The confirm step reads the release (first page only: its counts by kind are what it shows).
      const release = await readRelease(who, request, { productId, release: number, limit: 1 });
      if (!release) return noSuch(reply, who, 'No such release of this guide.');
      if (!release.restorable) return refused(`Release ${number} cannot be restored`, NOT_RESTORABLE, 400);
      if (release.total === 0) {
        const body = html`<h1>Nothing to restore</h1>
${message('notice', `Your working copy already holds what release ${number} held.`)}${back}`;
        return send(reply, who, 'Nothing to restore', body);
      }
      const body = html`<h1>Restore release ${number}?</h1>
${releaseFacts(release, true)}
<p>Your working copy of ${at.guideName} will hold what release ${number} held. What differs now:</p>
${kindTable(release.changes)}
<p>Buyers see nothing of it until you publish. The restore is one change in the history: undo it there to get back what you have now.</p>
<div class="actions">${restoreForm(productId, who.csrf, number, `Yes, restore release ${number}`, true)}</div>
${back}`;
      return send(reply, who, 'Confirm restore', body);
    }

    let restored: { changeId?: string };
    try {
      const input = { productId, release: number };
      restored = (await invoke(runtime, restoreReleaseOperation, input, call(who, request))).result;
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      if (err.code === 'not_found') return noSuch(reply, who, 'No such release of this guide.');
      if (err.code === 'guide_sold') {
        const words =
          `Someone bought this guide, so its spots cannot be deleted, and restoring release ${number} would delete ` +
          'spots added since. Nothing was changed. Archive those spots instead, or change back by hand what you want back: ' +
          'the differences show which.';
        return refused(`Release ${number} cannot be restored now`, words, 409);
      }
      if (err.code === 'invalid_request' && err.details?.path === 'release') {
        return refused(`Release ${number} cannot be restored`, NOT_RESTORABLE, 400);
      }
      throw err;
    }
    const done = new URLSearchParams({
      restored: String(number),
      ...(restored.changeId && { change: restored.changeId }),
    });
    return seeOther(reply, `${historyPath(productId)}?${done}`);
  });
}
