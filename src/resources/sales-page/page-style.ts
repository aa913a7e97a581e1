import { createHash } from 'node:crypto';

/**
 * The page's one stylesheet, inline (no request for it) and the same on every page, so the
 * Content-Security-Policy allows exactly it by hash. Mobile first: one column, system fonts.
 */
export const PAGE_CSS = `
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font:17px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2421;background:#fbfaf7}
main{max-width:46rem;margin:0 auto;padding:0 1rem 6rem}
img,svg{display:block;max-width:100%;height:auto}
h1,h2,h3{line-height:1.2;overflow-wrap:anywhere}
h1{font-size:1.9rem;margin:1.25rem 0 .5rem}
h2{font-size:1.35rem;margin:2.25rem 0 .75rem}
h3{font-size:1.05rem;margin:0 0 .25rem}
p,li{overflow-wrap:anywhere}
.hero{margin:0 -1rem}
.hero img{width:100%}
figure{margin:0}
figcaption,.credit{font-size:.85rem;color:#55605b}
.hero figcaption{padding:.35rem 1rem 0}
.byline{margin:0 0 .75rem;color:#55605b}
.byline .creator{color:#1d2421;font-weight:600}
.promise{font-size:1.15rem;color:#38423d;margin:0 0 1rem}
.buy{display:flex;flex-wrap:wrap;align-items:center;gap:.75rem;margin:1rem 0 0}
.price{font-size:1.5rem;font-weight:700}
.button{display:inline-block;padding:.6rem 1.1rem;border-radius:.5rem;background:#1f6f54;color:#fff;font-weight:600}
.bar{position:fixed;left:0;right:0;bottom:0;display:flex;justify-content:space-between;align-items:center;gap:.75rem;padding:.6rem 1rem;background:#fff;border-top:1px solid #e3e0d8}
.bar .price{font-size:1.15rem}
ul.ticks{padding-left:1.2rem}
.spots{list-style:none;padding:0;margin:0;display:grid;gap:1rem;align-items:start}
.spot{background:#fff;border:1px solid #e3e0d8;border-radius:.6rem;overflow:hidden}
.spot .body{padding:.75rem .9rem}
.spot p{margin:.25rem 0 0}
.spot .n{display:inline-block;min-width:1.5rem;margin-right:.35rem;border-radius:1rem;background:#1f6f54;color:#fff;text-align:center;font-size:.85rem}
.map{margin:0 0 1rem}
.map svg{width:100%;max-width:36rem;margin:0 auto;border-radius:.6rem;border:1px solid #d9d4c7}
.map figcaption{text-align:center}
.gallery{display:grid;gap:1rem;align-items:start}
.gallery figcaption{padding-top:.35rem}
.gallery .caption{display:block;font-size:.95rem;color:#1d2421}
.gallery .credit{display:block;margin-top:.15rem;font-size:.8rem}
details{border-bottom:1px solid #e3e0d8;padding:.6rem 0}
summary{cursor:pointer;font-weight:600}
footer{margin-top:3rem;font-size:.85rem;color:#55605b}
a{color:#1f6f54}
@media (min-width:40rem){
  h1{font-size:2.4rem}
  .hero{margin:1rem 0 0}
  .hero img{border-radius:.6rem}
  .hero figcaption{padding:.35rem 0 0}
  .spots{grid-template-columns:1fr 1fr}
  .gallery{grid-template-columns:1fr 1fr}
}
`;

/** The policy's allowance for PAGE_CSS: its SHA-256, as CSP writes hashes. */
export const PAGE_CSS_HASH = `'sha256-${createHash('sha256').update(PAGE_CSS).digest('base64')}'`;

/**
 * Nothing but the stylesheet above and photos of this service (or of the origins its photos are
 * served from): no script at all, no frames, no forms, and no other host, so a page can reach
 * nothing else.
 */
export function pagePolicy(imageOrigins: readonly string[] = []): string {
  return [
    "default-src 'none'",
    ["img-src 'self'", ...imageOrigins].join(' '),
    `style-src ${PAGE_CSS_HASH}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
