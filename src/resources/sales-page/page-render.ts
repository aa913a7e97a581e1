import { absoluteUrl } from '../media/index.ts';
import { html, Markup } from './html.ts';
import type { BuyersPageModel } from './page-model.ts';
import { buy, byline, faq, gallery, hero, highlights, included, sampleSpots, sections } from './page-parts.ts';
import { PAGE_CSS } from './page-style.ts';

/** The stylesheet as it is: the policy allows it by the hash of these exact bytes. */
const STYLE = new Markup(PAGE_CSS);

/** What link previews (Open Graph, X cards) and search engines read, with absolute addresses. */
function metaTags(page: BuyersPageModel, url: string, publicUrl: string): Markup {
  const image = page.hero ?? page.gallery[0] ?? page.spots.find((s) => s.photo)?.photo ?? null;
  const description = page.description
    ? html`<meta name="description" content="${page.description}"><meta property="og:description" content="${page.description}">`
    : html``;
  const ogImage = image
    ? html`<meta property="og:image" content="${absoluteUrl(publicUrl, image.largePath)}"><meta property="og:image:alt" content="${image.alt}">`
    : html``;
  return html`<title>${page.title}</title>
<link rel="canonical" href="${url}">
${description}
${page.creatorName ? html`<meta name="author" content="${page.creatorName}">` : html``}
<meta property="og:type" content="product">
<meta property="og:title" content="${page.title}">
<meta property="og:url" content="${url}">
<meta property="og:site_name" content="${page.guideName}">
${ogImage}
<meta name="twitter:card" content="${image ? 'summary_large_image' : 'summary'}">`;
}

/** The whole page: server-rendered, no script, one inline stylesheet. */
export function renderBuyersPage(page: BuyersPageModel, url: string, publicUrl: string): string {
  return html`<!doctype html>
<html lang="${page.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${metaTags(page, url, publicUrl)}
<style>${STYLE}</style>
</head>
<body>
<main>
${hero(page.hero)}
<h1>${page.headline}</h1>
${byline(page)}
${page.promise ? html`<p class="promise">${page.promise}</p>` : html``}
${buy(page, 'buy')}
${highlights(page)}
${sections(page)}
${sampleSpots(page)}
${included(page)}
${gallery(page)}
${faq(page)}
<footer><p>${page.guideName}${page.creatorName ? html` · by ${page.creatorName}` : html``}</p></footer>
</main>
${buy(page, 'bar')}
</body>
</html>
`.text;
}
