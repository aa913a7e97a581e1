import { createHash } from 'node:crypto';
import type { Urls } from '../../core/operation.ts';
import type { Stores } from '../../core/stores.ts';
import { readGuideContents, type Snapshot, serializeSnapshot, snapshotRows } from '../publishing/index.ts';
import { buyersPageModel, escapeHtml, renderBuyersPage } from '../sales-page/index.ts';
import { previewContents } from './preview-contents.ts';
import { PREVIEW_CSS } from './preview-style.ts';

export interface RenderedPreview {
  html: string;
  /** Allows exactly the page's own inline stylesheets, by hash; no script, no form, no frame. */
  contentSecurityPolicy: string;
}

function insertBefore(page: string, marker: string, text: string): string {
  const at = page.indexOf(marker);
  if (at === -1) throw new Error(`the buyers' page has no ${marker}: the preview cannot be assembled`);
  return page.slice(0, at) + text + page.slice(at);
}

/** Every inline stylesheet of the page, as CSP hashes: whatever the buyers' page carries is allowed, and no more. */
function styleHashes(page: string): string[] {
  return [...page.matchAll(/<style>([\s\S]*?)<\/style>/g)].map(
    (m) =>
      `'sha256-${createHash('sha256')
        .update(m[1] as string)
        .digest('base64')}'`,
  );
}

/**
 * The working copy as buyers would see it after the next publish: the snapshot a publish would
 * write (reviewer-only fields already left out), its sales page drawn by the buyers' own renderer,
 * then everything inside the guide. Nothing is written; no release is made.
 */
export async function renderPreview(
  stores: Stores,
  guideId: string,
  creatorId: string,
  urls: Urls,
  banner: string,
): Promise<RenderedPreview> {
  const contents = await readGuideContents(stores, guideId, creatorId);
  const snapshot = JSON.parse(serializeSnapshot(snapshotRows(contents)).bytes.toString()) as Snapshot;
  const model = buyersPageModel(snapshot);
  const salesPageUrl = `${urls.publicUrl}${contents.guide.salesPageUrl}`;
  let page = renderBuyersPage(model, salesPageUrl, urls.publicUrl);
  page = insertBefore(page, '</head>', `<meta name="robots" content="noindex">\n<style>${PREVIEW_CSS}</style>\n`);
  page = insertBefore(page, '<main>', `<p class="preview-banner" role="status">${escapeHtml(banner)}</p>\n`);
  page = insertBefore(page, '</main>', `${previewContents(snapshot, model.bbox).text}\n`);
  const policy = [
    "default-src 'none'",
    "img-src 'self'",
    `style-src ${styleHashes(page).join(' ')}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  return { html: page, contentSecurityPolicy: policy };
}
