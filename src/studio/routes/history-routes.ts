import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../core/errors.ts';
import { invoke } from '../../core/invoke.ts';
import type { RateLimitOutcome } from '../../core/rate-limit.ts';
import { type Change, listChanges, undoableOutcome, undoChangesOperation } from '../../resources/history/index.ts';
import { html, type Markup } from '../../resources/sales-page/index.ts';
import { requireSignedIn, type StudioDeps, studioStores } from '../context.ts';
import { doneNotice } from '../history/done-notice.ts';
import {
  changesSection,
  type Described,
  describedList,
  type HistoryPlace,
  historyHref,
  historyPath,
  undoForm,
} from '../history/history-page.ts';
import { historyReplies } from '../history/history-replies.ts';
import { RecordNamesStore, type RecordRef } from '../history/record-names.store.ts';
import { message } from '../web/page.ts';
import { field, fieldList, seeOther } from '../web/security.ts';
import { registerReleaseRoutes, releasesSectionAt } from './release-routes.ts';

/** Changes one Undo may name: undo_changes takes as many. */
const UNDO_MOST = 100;

/** Records a described change names, as list_changes names at most. */
const RECORDS_SHOWN = 10;

/**
 * A guide's History page: its changes grouped by session, each change and each session with an
 * Undo that is confirmed on a page of its own and runs undo_changes as the studio; beside them its
 * releases, each with its differences and a Restore (release-routes.ts).
 */
export function registerHistoryRoutes(app: FastifyInstance, deps: StudioDeps): void {
  const { runtime } = deps;
  const replies = historyReplies(deps);
  const { call, ownedName, send: sendHistory, noSuch } = replies;
  registerReleaseRoutes(app, deps, replies);

  function names(productId: string, records: readonly RecordRef[]): Promise<Map<string, string>> {
    const scope = { db: runtime.db, clock: runtime.clock, dialect: runtime.dialect };
    return new RecordNamesStore(scope).namesOf(productId, records);
  }

  /** The guide's changes by id, newest first; undefined when any id is no change of this guide. */
  async function described(productId: string, ids: readonly string[]): Promise<Described[] | undefined> {
    const { changes } = studioStores(runtime).stores;
    const rows = await changes.byIds(productId, ids);
    if (rows.length !== new Set(ids).size) return undefined;
    const outcomes = await changes.outcomes(ids);
    return rows
      .sort((a, b) => b.seq - a.seq)
      .map((row) => {
        const outcome = outcomes.get(row.id);
        const records = outcome?.records ?? [];
        return {
          changeId: row.id,
          operation: row.operation,
          records: records.slice(0, RECORDS_SHOWN),
          recordCount: records.length,
          reversible: undoableOutcome(row.operation, outcome?.deletes ?? false),
        };
      });
  }

  app.get<{ Params: { productId: string }; Querystring: Record<string, unknown> }>(
    '/guides/:productId/history',
    async (request, reply) => {
      const who = await requireSignedIn(deps, request, reply);
      if (!who) return reply;
      const { productId } = request.params;
      const guideName = await ownedName(who, productId);
      if (guideName === undefined) return noSuch(reply, who, 'No such guide of yours.');
      const { query } = request;
      const place: HistoryPlace = {
        ...(typeof query.cursor === 'string' && { cursor: query.cursor }),
        ...(typeof query.releases === 'string' && { releases: query.releases }),
      };
      const { cursor } = place;
      let page: { changes: Change[]; nextCursor: string | null };
      let paid: RateLimitOutcome;
      try {
        const { result, rate } = await invoke(runtime, listChanges, { productId, cursor }, call(who, request));
        page = result as unknown as typeof page;
        paid = rate;
      } catch (err) {
        // A cursor that is not one this page gave (edited, or of another list) starts from the newest.
        if (!(err instanceof ApiError && err.code === 'invalid_argument' && cursor !== undefined)) throw err;
        return seeOther(reply, historyHref(productId, { ...place, cursor: undefined }));
      }
      // One view, one call of the rate budget: the releases' read rides on the changes' (Call.paid).
      const releases = await releasesSectionAt(deps, { ...call(who, request), paid }, who, productId, place);
      if (!releases) return seeOther(reply, historyHref(productId, { ...place, releases: undefined }));
      const records = page.changes.flatMap((c) => c.records);
      const changes = changesSection({
        productId,
        csrf: who.csrf,
        changes: page.changes,
        names: await names(productId, records),
        nextCursor: page.nextCursor,
        place,
      });
      // Sections of the page, side by side in reading order.
      const sections: Markup[] = [changes, releases];
      const body = html`<h1>History of ${guideName}</h1>
<p><a href="/studio/guides">Back to your guides</a> · <a href="#changes-heading">Changes</a> · <a href="#releases-heading">Releases</a></p>
${doneNotice(productId, who.csrf, query, page.changes)}${sections}`;
      return sendHistory(reply, who, `History of ${guideName}`, body);
    },
  );

  app.post<{ Params: { productId: string } }>('/guides/:productId/history/undo', async (request, reply) => {
    const who = await requireSignedIn(deps, request, reply);
    if (!who) return reply;
    const { productId } = request.params;
    const guideName = await ownedName(who, productId);
    if (guideName === undefined) return noSuch(reply, who, 'No such guide of yours.');
    const ids = [...new Set(fieldList(request.body, 'changeId'))];
    if (ids.length === 0 || ids.length > UNDO_MOST) {
      const body = html`<h1>Nothing to undo</h1>${message('error', `Choose between 1 and ${UNDO_MOST} changes to undo.`)}`;
      return sendHistory(reply, who, 'Nothing to undo', body, 400);
    }
    const changes = await described(productId, ids);
    if (!changes) return noSuch(reply, who, 'No such change in this guide.');
    const back = html`<p><a href="${historyPath(productId)}">Back to the history</a></p>`;
    const named = await names(
      productId,
      changes.flatMap((c) => c.records),
    );

    if (field(request.body, 'confirm') !== 'yes') {
      const body = html`<h1>Undo ${changes.length === 1 ? 'this change' : `these ${changes.length} changes`}?</h1>
<p>In ${guideName}, this puts back what the records held before:</p>
${describedList(changes, named)}
<p>Records these changes created are deleted. The undo is recorded in the history, where you can undo it in turn.</p>
<div class="actions">${undoForm(productId, who.csrf, ids, 'Yes, undo', true)}</div>
${back}`;
      return sendHistory(reply, who, 'Confirm undo', body);
    }

    try {
      await invoke(runtime, undoChangesOperation, { productId, changeIds: ids }, call(who, request));
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      if (err.code === 'stale_editor') {
        const laterIds = (err.details?.changeIds ?? []) as string[];
        const later = (await described(productId, laterIds)) ?? [];
        const laterNamed = await names(
          productId,
          later.flatMap((c) => c.records),
        );
        // A later change that deleted records cannot be undone, so neither can what it builds on.
        const offer = later.every((c) => c.reversible)
          ? html`<p>You can undo them together with what you chose:</p>
${describedList(changes, named)}
<div class="actions">${undoForm(productId, who.csrf, [...laterIds, ...ids], 'Undo them all together', true)}</div>`
          : html`<p>Some of them deleted records, and deleting is permanent, so what you chose cannot be undone any more. Restoring a release brings back what that release held.</p>`;
        const body = html`<h1>Later changes touched the same records</h1>
${message('error', 'These later changes edited the same records. Undoing without them would silently take them back too, so nothing was undone:')}
${describedList(later, laterNamed)}
${offer}
${back}`;
        return sendHistory(reply, who, 'Later changes', body, 409);
      }
      if (err.code === 'not_found') return noSuch(reply, who, 'No such change in this guide.');
      if (err.code !== 'invalid_argument' && err.code !== 'invalid_request') throw err;
      const body = html`<h1>This cannot be undone</h1>${message('error', err.message)}${back}`;
      return sendHistory(reply, who, 'Cannot undo', body, 409);
    }
    return seeOther(reply, `${historyPath(productId)}?done=undone`);
  });
}
