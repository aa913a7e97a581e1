import type { Change } from '../../resources/history/index.ts';
import { html, type Markup } from '../../resources/sales-page/index.ts';
import { message } from '../web/page.ts';
import { undoForm } from './history-page.ts';
import { releaseNumber } from './release-words.ts';

/**
 * What the History page says after an undo or a restore sent the creator back to it. After a
 * restore, the change it made (when listed on this page and still undoable) gets its Undo right
 * there: the restore is one change, and the button is the changes section's own.
 */
export function doneNotice(
  productId: string,
  csrf: string,
  query: Readonly<Record<string, unknown>>,
  changes: readonly Change[],
): Markup {
  if (query.done === 'undone')
    return message('notice', 'Undone. The undo is a change too: undo it to bring the changes back.');
  const release = releaseNumber(query.restored);
  if (release === undefined) return html``;
  if (query.change === undefined) {
    return message('notice', `Nothing to restore: your working copy already held what release ${release} held.`);
  }
  const change = changes.find((c) => c.changeId === query.change && c.operation === 'restore_release');
  const undo =
    change?.undoable === true
      ? html`<p>The restore is one change, first under Changes: undo it to get back what you had.</p><div class="actions">${undoForm(productId, csrf, [change.changeId], 'Undo the restore')}</div>`
      : html``;
  return html`<div class="notice" role="status" data-restored><p>Release ${release} restored. Buyers see it only after your next publish.</p>${undo}</div>`;
}
