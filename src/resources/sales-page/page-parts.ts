import { html, Markup, prose } from './html.ts';
import { drawMap } from './page-map.ts';
import type { BuyersPageModel, PagePhoto, PageSpot } from './page-model.ts';

/** Photos fill the column: full width on a phone, the 46rem column beyond it. */
const COLUMN = '(min-width: 46rem) 46rem, 100vw';
const HALF_COLUMN = '(min-width: 46rem) 23rem, (min-width: 40rem) 50vw, 100vw';

/** "Photo: <name>", linked to the photographer's page when the creator gave one. A photo without a credit shows none. */
export function credit(photo: PagePhoto): Markup {
  if (photo.credit === null) return html``;
  const name = photo.creditUrl
    ? html`<a href="${photo.creditUrl}" rel="nofollow noopener noreferrer">${photo.credit}</a>`
    : photo.credit;
  return html`<span class="credit">Photo: ${name}</span>`;
}

function image(photo: PagePhoto, sizes: string, { eager = false } = {}): Markup {
  const loading = eager ? html`fetchpriority="high"` : html`loading="lazy"`;
  return html`<img src="${photo.src}" srcset="${photo.srcset}" sizes="${sizes}" width="${photo.width}" height="${photo.height}" alt="${photo.alt}" decoding="async" ${loading}>`;
}

export function hero(photo: PagePhoto | null): Markup {
  if (!photo) return html``;
  return html`<figure class="hero">${image(photo, COLUMN, { eager: true })}<figcaption>${credit(photo)}</figcaption></figure>`;
}

/** Who made the guide, under its headline. */
export function byline(page: BuyersPageModel): Markup {
  if (page.creatorName === null) return html``;
  return html`<p class="byline">A guide by <span class="creator">${page.creatorName}</span></p>`;
}

export function buy(page: BuyersPageModel, className: string): Markup {
  if (page.price === null) return html``;
  return html`<div class="${className}"><span class="price">${page.price}</span><span class="button">${page.buyLabel}</span></div>`;
}

export function sections(page: BuyersPageModel): Markup {
  return html`${page.sections.map(
    (s) => html`<section><h2>${s.heading}</h2>${s.paragraphs.map((p) => prose(p))}</section>`,
  )}`;
}

function list(heading: string, items: readonly string[]): Markup {
  if (items.length === 0) return html``;
  return html`<section><h2>${heading}</h2><ul class="ticks">${items.map((i) => html`<li>${i}</li>`)}</ul></section>`;
}

export const highlights = (page: BuyersPageModel) => list('Highlights', page.highlights);
export const included = (page: BuyersPageModel) => list("What's inside", page.included);

function spotCard(spot: PageSpot, n: number): Markup {
  const photo = spot.photo
    ? html`<figure>${image(spot.photo, HALF_COLUMN)}<figcaption class="body">${credit(spot.photo)}</figcaption></figure>`
    : html``;
  const summary = spot.summary ? html`<p>${spot.summary}</p>` : html``;
  const number = spot.lat !== null && spot.lon !== null ? html`<span class="n">${n}</span>` : html``;
  return html`<li class="spot">${photo}<div class="body"><h3>${number}${spot.name}</h3>${summary}</div></li>`;
}

/** The sample spots that have a pin, numbered as their cards are. Nothing when none has one. */
function spotMap(page: BuyersPageModel): Markup {
  const points = page.spots.flatMap((s, i) =>
    s.lat === null || s.lon === null ? [] : [{ name: s.name, lat: s.lat, lon: s.lon, marker: String(i + 1) }],
  );
  if (points.length === 0) return html``;
  const svg = new Markup(drawMap(page.bbox, points, { label: 'Map of the sample spots' }));
  return html`<figure class="map">${svg}<figcaption>Sample spots on a map of the guide's area (north is up).</figcaption></figure>`;
}

export function sampleSpots(page: BuyersPageModel): Markup {
  if (page.spots.length === 0) return html``;
  return html`<section><h2>A taste of the guide</h2>${spotMap(page)}<ul class="spots">${page.spots.map((s, i) =>
    spotCard(s, i + 1),
  )}</ul></section>`;
}

export function gallery(page: BuyersPageModel): Markup {
  if (page.gallery.length === 0) return html``;
  // The caption says what the photo shows and the credit who took it: two elements, on two lines.
  const figures = page.gallery.map((photo) => {
    const caption = photo.caption ? html`<span class="caption">${photo.caption}</span>` : html``;
    return html`<figure>${image(photo, HALF_COLUMN)}<figcaption>${caption}${credit(photo)}</figcaption></figure>`;
  });
  return html`<section><h2>Photos</h2><div class="gallery">${figures}</div></section>`;
}

export function faq(page: BuyersPageModel): Markup {
  if (page.faq.length === 0) return html``;
  return html`<section><h2>Questions</h2>${page.faq.map(
    (q) => html`<details><summary>${q.question}</summary>${prose(q.answer)}</details>`,
  )}</section>`;
}
