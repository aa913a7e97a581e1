import type { Change } from '../../resources/history/index.ts';
import { html, type Markup } from '../../resources/sales-page/index.ts';
import { csrfField, dateTime } from '../web/page.ts';
import { changeWords, sessionsOf, whyNotUndoable } from './change-words.ts';

/** A change as the confirm and refusal pages describe it (no who or when: what it did, and whether it can go). */
export type Described = Pick<Change, 'changeId' | 'operation' | 'records' | 'recordCount'> & {
  /** false when it deleted records (deleting is permanent). */
  reversible: boolean;
};

export function historyPath(productId: string): string {
  return `/studio/guides/${encodeURIComponent(productId)}/history`;
}

/** Where each section of the History page stands: the cursor of its page, none for its newest. */
export interface HistoryPlace {
  /** The changes' page (list_changes's cursor). */
  cursor?: string;
  /** The releases' page (list_releases's cursor). */
  releases?: string;
}

/** The History page at a place: a section's pager moves that section and leaves the other where it is. */
export function historyHref(productId: string, place: HistoryPlace): string {
  const query = new URLSearchParams();
  if (place.cursor !== undefined) query.set('cursor', place.cursor);
  if (place.releases !== undefined) query.set('releases', place.releases);
  const search = query.toString();
  return search === '' ? historyPath(productId) : `${historyPath(productId)}?${search}`;
}

/**
 * The form every Undo button is: the change ids and the form token, posted to the confirm step.
 * `confirmed` makes it the confirm step's own button, which undoes.
 */
export function undoForm(
  productId: string,
  csrf: string,
  changeIds: readonly string[],
  label: string,
  confirmed = false,
): Markup {
  return html`<form method="post" action="${historyPath(productId)}/undo">${csrfField(csrf)}${changeIds.map(
    (id) => html`<input type="hidden" name="changeId" value="${id}">`,
  )}${confirmed ? html`<input type="hidden" name="confirm" value="yes">` : html``}<button class="${confirmed ? 'danger' : 'quiet'}" type="submit">${label}</button></form>`;
}

function changeItem(productId: string, csrf: string, change: Change, names: ReadonlyMap<string, string>): Markup {
  const why = whyNotUndoable(change);
  const action = why
    ? html`<p class="muted" data-not-undoable>${why}</p>`
    : html`<div class="actions">${undoForm(productId, csrf, [change.changeId], 'Undo')}</div>`;
  return html`<li data-change-id="${change.changeId}"><p><span class="muted">${dateTime(change.at)}</span> ${changeWords(change, names)}${change.undoneBy ? html` <span class="tag warn">undone</span>` : html``}</p>${action}</li>`;
}

/** A writer as the page names it: the studio is "you", a key and an assistant by their names. */
export function whoWords(by: Change['by']): string {
  if (by.kind === 'studio') return 'You, in the studio';
  if (by.kind === 'assistant') return `${by.name} (assistant)`;
  return `${by.name} (API key)`;
}

/** One session: who, when, its changes, and an Undo of all of it that can be undone. */
function sessionCard(productId: string, csrf: string, session: Change[], names: ReadonlyMap<string, string>): Markup {
  const newest = session[0] as Change;
  const oldest = session.at(-1) as Change;
  const undoable = session.filter((c) => c.undoable).map((c) => c.changeId);
  const count = `${session.length} ${session.length === 1 ? 'change' : 'changes'}`;
  const span = session.length === 1 ? dateTime(newest.at) : `${dateTime(oldest.at)} to ${dateTime(newest.at)}`;
  const groupUndo =
    session.length > 1 && undoable.length > 0
      ? html`<div class="actions">${undoForm(productId, csrf, undoable, `Undo this session (${undoable.length})`)}</div>`
      : html``;
  return html`<section class="card" data-session>
<h3>${whoWords(newest.by)}</h3>
<p class="muted">${count}, ${span}</p>
${groupUndo}
<ul class="changes">${session.map((c) => changeItem(productId, csrf, c, names))}</ul>
</section>`;
}

export interface ChangesView {
  productId: string;
  csrf: string;
  changes: Change[];
  names: ReadonlyMap<string, string>;
  nextCursor: string | null;
  /** Where the page stands; the pager moves only its `cursor`. */
  place: HistoryPlace;
}

/**
 * The changes section of a guide's History page: newest first, grouped by session, paged as
 * list_changes pages (the next page's cursor in the link). The releases section goes beside it.
 */
export function changesSection(view: ChangesView): Markup {
  const { productId, csrf, changes, names, nextCursor, place } = view;
  const pager = [
    place.cursor !== undefined
      ? html`<a href="${historyHref(productId, { ...place, cursor: undefined })}">Newest changes</a>`
      : html``,
    nextCursor
      ? html`<a href="${historyHref(productId, { ...place, cursor: nextCursor })}" rel="next">Older changes</a>`
      : html``,
  ];
  const list =
    changes.length === 0
      ? html`<p>No changes recorded yet. Every change to this guide, by an assistant, a key or you, shows here.</p>`
      : sessionsOf(changes).map((s) => sessionCard(productId, csrf, s, names));
  return html`<section aria-labelledby="changes-heading" data-section="changes">
<h2 id="changes-heading">Changes</h2>
<p class="muted">Newest first, grouped by session: changes by the same assistant or key with no pause longer than half an hour. Undo asks you to confirm first.</p>
${list}
<p class="actions">${pager}</p>
</section>`;
}

/** The changes a confirm or refusal page names, each in words. */
export function describedList(changes: readonly Described[], names: ReadonlyMap<string, string>): Markup {
  return html`<ul>${changes.map((c) => html`<li data-change-id="${c.changeId}">${changeWords(c, names)}</li>`)}</ul>`;
}
