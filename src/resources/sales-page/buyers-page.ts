import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Urls } from '../../core/operation.ts';
import type { PublicPage, PublicPageReader, PublicPages } from '../../core/resource.ts';
import { withFileUrls } from '../media/index.ts';
import { html, Markup } from './html.ts';
import { buyersPageModel } from './page-model.ts';
import { renderBuyersPage } from './page-render.ts';
import { PAGE_CSS, pagePolicy } from './page-style.ts';

/** Where a guide's sales page lives; the guide record's salesPageUrl names the same address. */
export const BUYERS_PAGE_PATH = '/g/:creatorSlug/:guideSlug';

/**
 * Rendered pages by guide, release and public address: one app's (`Caches.buyersPages`), since
 * another app may hold another store where the same guide has a release of the same number. A
 * release never changes, so a page is rendered once and served from memory until a publish makes
 * a newer release (a new key). Bounded by the pages' size.
 */
export function renderedPages(): LRUCache<string, PublicPage> {
  return new LRUCache<string, PublicPage>({
    maxSize: 32 * 1024 * 1024,
    sizeCalculation: (page) => Math.max(1, page.html.length),
  });
}

function pageOf(text: string): PublicPage {
  const bytes = Buffer.from(text);
  return { html: bytes, etag: `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"` };
}

/**
 * The sales page of the guide at this address, as its current release shows it: one cheap query
 * per request (address to guide, status and newest release number), then memory. Undefined (404)
 * for an unknown address, a guide never published, and one no longer on sale: buyers must not be
 * offered what they cannot buy. The working copy is never read.
 */
async function findBuyersPage(params: Record<string, string>, { stores, urls, caches }: PublicPageReader) {
  const { creatorSlug = '', guideSlug = '' } = params;
  const guide = await stores.releases.atAddress(creatorSlug, guideSlug);
  if (guide?.status !== 'published' || guide.releaseNumber === null) return undefined;
  const addresses = `${urls.publicUrl} ${urls.mediaUrl ?? ''}`;
  const key = `${guide.guideId}@${guide.releaseNumber} ${addresses}`;
  const rendered = caches.buyersPages;
  const cached = rendered.get(key);
  if (cached) return cached;
  const release = await stores.releases.current(guide.guideId);
  if (!release) return undefined;
  const url = `${urls.publicUrl}/g/${encodeURIComponent(creatorSlug)}/${encodeURIComponent(guideSlug)}`;
  const page = pageOf(renderBuyersPage(buyersPageModel(withFileUrls(release.snapshot, urls)), url, urls.publicUrl));
  // Under the number it was rendered from: a publish landing in between makes the next key anyway.
  rendered.set(`${guide.guideId}@${release.number} ${addresses}`, page);
  return page;
}

const NOT_FOUND = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Guide not found</title>
<style>${new Markup(PAGE_CSS)}</style>
</head>
<body>
<main>
<h1>Guide not found</h1>
<p>There is no guide on sale at this address. The link may be mistyped, or the guide is not available any more.</p>
</main>
</body>
</html>
`;

export const buyersPage: PublicPages = {
  path: BUYERS_PAGE_PATH,
  // Photos come from this service, or from the bucket's own addresses where they are served from there.
  contentSecurityPolicy: (urls: Urls) => pagePolicy(urls.mediaUrl === undefined ? [] : [new URL(urls.mediaUrl).origin]),
  maxAgeSeconds: 60,
  find: findBuyersPage,
  notFound: Buffer.from(NOT_FOUND.text),
};
