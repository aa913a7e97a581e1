import { html, type Markup } from '../../resources/sales-page/index.ts';
import { csrfField, dateTime } from '../web/page.ts';
import { kindWords } from './change-words.ts';
import { historyPath, whoWords } from './history-page.ts';
import { DIFFERENCE_WORDS, heldWords, NOT_RESTORABLE, type ReleaseSummary } from './release-words.ts';

/** A listed release, and whether it kept what a restore needs. */
export type ListedRelease = ReleaseSummary & { restorable: boolean };

/** How the working copy differs from a release, by kind, as get_release counts it. */
export interface KindDifference {
  kind: string;
  added: number;
  changed: number;
  removed: number;
}

/** A record that differs, as get_release names it. */
export interface RecordDifference {
  kind: string;
  id: string;
  name: string | null;
  change: 'added' | 'changed' | 'removed';
}

export function releasePath(productId: string, release: number): string {
  return `${historyPath(productId)}/releases/${release}`;
}

/**
 * The form every Restore button is: the form token, posted to the confirm step; `confirmed` makes
 * it the confirm step's own button, which restores.
 */
export function restoreForm(
  productId: string,
  csrf: string,
  release: number,
  label: string,
  confirmed = false,
): Markup {
  return html`<form method="post" action="${releasePath(productId, release)}/restore">${csrfField(csrf)}${confirmed ? html`<input type="hidden" name="confirm" value="yes">` : html``}<button class="${confirmed ? 'danger' : 'quiet'}" type="submit">${label}</button></form>`;
}

/** When and by whom, as the changes section says a session's writer. */
function publishedWords(release: ReleaseSummary): Markup {
  return html`<p>Published <span class="muted">${dateTime(release.publishedAt)}</span> by ${whoWords(release.by)}.</p>`;
}

/** A release's who, when and what it held: the list's card and the top of its differences page. */
export function releaseFacts(release: ReleaseSummary, restorable: boolean): Markup {
  return html`${publishedWords(release)}
<p>It held: ${heldWords(release.counts)}</p>
${restorable ? html`` : html`<p class="muted" data-not-restorable>${NOT_RESTORABLE}</p>`}`;
}

function releaseCard(productId: string, csrf: string, release: ListedRelease): Markup {
  const restore = release.restorable ? restoreForm(productId, csrf, release.release, 'Restore') : html``;
  return html`<section class="card" data-release="${release.release}">
<h3>Release ${release.release}</h3>
${releaseFacts(release, release.restorable)}
<div class="actions"><a href="${releasePath(productId, release.release)}">Differences</a>${restore}</div>
</section>`;
}

export interface ReleasesView {
  productId: string;
  csrf: string;
  releases: ListedRelease[];
  /** The newest releases, when this is a later page. */
  newestHref?: string;
  olderHref?: string;
}

/** The releases section of a guide's History page: newest first, paged as list_releases pages. */
export function releasesSection(view: ReleasesView): Markup {
  const { productId, csrf, releases } = view;
  const pager = [
    view.newestHref ? html`<a href="${view.newestHref}">Newest releases</a>` : html``,
    view.olderHref ? html`<a href="${view.olderHref}" rel="next">Older releases</a>` : html``,
  ];
  const list =
    releases.length === 0
      ? html`<p>No releases yet. Each publish keeps a release: what buyers got, which you can compare and restore.</p>`
      : releases.map((r) => releaseCard(productId, csrf, r));
  return html`<section aria-labelledby="releases-heading" data-section="releases">
<h2 id="releases-heading">Releases</h2>
<p class="muted">Newest first: what buyers got at each publish. Restoring one makes your working copy hold what it held (buyers see it when you next publish); it asks you to confirm first, and can be undone like any change.</p>
${list}
<p class="actions">${pager}</p>
</section>`;
}

/** How many records of each kind differ, as a table (one row a kind). */
export function kindTable(kinds: readonly KindDifference[]): Markup {
  const rows = kinds.map(
    (k) =>
      html`<tr data-kind="${k.kind}"><td data-label="Kind">${kindWords(k.kind)}</td><td data-label="Added since">${k.added}</td><td data-label="Changed since">${k.changed}</td><td data-label="Removed since">${k.removed}</td></tr>`,
  );
  return html`<table class="stack"><thead><tr><th>Kind</th><th>Added since</th><th>Changed since</th><th>Removed since</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** The records that differ, each by kind and name (the guide's own fields and the sales page by kind). */
function recordTable(records: readonly RecordDifference[]): Markup {
  const rows = records.map(
    (r) =>
      html`<tr data-record-id="${r.id}"><td data-label="Kind">${kindWords(r.kind)}</td><td data-label="Name">${r.name ?? html`<span class="muted">${r.kind === 'guide' || r.kind === 'salesPage' ? '' : r.id}</span>`}</td><td data-label="Since this release">${DIFFERENCE_WORDS[r.change]}</td></tr>`,
  );
  return html`<table class="stack" data-records><thead><tr><th>Kind</th><th>Name</th><th>Since this release</th></tr></thead><tbody>${rows}</tbody></table>`;
}

export interface DifferencesView {
  productId: string;
  guideName: string;
  csrf: string;
  release: ReleaseSummary & {
    restorable: boolean;
    changes: KindDifference[];
    records: RecordDifference[];
    total: number;
  };
  firstHref?: string;
  nextHref?: string;
}

/** A release's page: who published it, what it held, and how the working copy differs from it, paged. */
export function differencesBody(view: DifferencesView): Markup {
  const { productId, release } = view;
  const pager = [
    view.firstHref ? html`<a href="${view.firstHref}">First records</a>` : html``,
    view.nextHref ? html`<a href="${view.nextHref}" rel="next">More records</a>` : html``,
  ];
  const differences =
    release.total === 0
      ? html`<p>Nothing differs: your working copy holds what this release held.</p>`
      : html`<p>${release.total} ${release.total === 1 ? 'record differs' : 'records differ'}.${release.restorable ? '' : ' Compared as buyers see them: this release kept only what buyers could open.'}</p>
${kindTable(release.changes)}
<h3>Record by record</h3>
${recordTable(release.records)}
<p class="actions">${pager}</p>
${release.restorable ? html`<div class="actions">${restoreForm(productId, view.csrf, release.release, `Restore release ${release.release}`)}</div>` : html``}`;
  return html`<h1>Release ${release.release} of ${view.guideName}</h1>
<p><a href="${historyPath(productId)}#releases-heading">Back to the history</a></p>
${releaseFacts(release, release.restorable)}
<h2>How your working copy differs from it</h2>
${differences}`;
}
