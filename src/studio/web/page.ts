import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { html, Markup } from '../../resources/sales-page/index.ts';

/** The studio's one stylesheet, inline and allowed by its hash: no script anywhere in the studio. */
export const STUDIO_CSS = `
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2421;background:#f6f5f1}
header{display:flex;flex-wrap:wrap;align-items:center;gap:.25rem 1rem;padding:.6rem 1rem;background:#1f3b31;color:#fff}
header .brand{font-weight:700;margin-right:auto}
header a{color:#fff;text-decoration:none;padding:.25rem 0}
header a[aria-current]{text-decoration:underline;text-underline-offset:.3rem}
header form{margin:0}
header button{background:none;border:1px solid #9fb8ad;color:#fff;padding:.2rem .6rem;font-size:.9rem}
main{max-width:52rem;margin:0 auto;padding:1rem 1rem 4rem}
h1{font-size:1.6rem;margin:1rem 0}
h2{font-size:1.2rem;margin:2rem 0 .5rem}
p,li,td,th{overflow-wrap:anywhere}
a{color:#1f6f54}
form.card,section.card{background:#fff;border:1px solid #e0ddd4;border-radius:.6rem;padding:1rem;margin:1rem 0}
.card>h2:first-child{margin-top:0}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
label.check{display:flex;gap:.5rem;align-items:center;font-weight:400}
input[type=email],input[type=password],input[type=text],input[type=date],select{width:100%;max-width:28rem;font:inherit;padding:.5rem;border:1px solid #b9b5aa;border-radius:.4rem;background:#fff}
input[type=checkbox]{width:1.2rem;height:1.2rem}
button{font:inherit;font-weight:600;padding:.5rem 1rem;border-radius:.4rem;border:1px solid #1f6f54;background:#1f6f54;color:#fff;cursor:pointer}
button.quiet{background:#fff;color:#1f6f54}
button.danger{background:#fff;color:#a4262c;border-color:#a4262c}
.actions{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem;margin-top:1rem}
.actions form{margin:0}
.notice{padding:.75rem 1rem;border-radius:.5rem;margin:1rem 0;background:#e8f3ee;border:1px solid #b6d8c8}
.error{padding:.75rem 1rem;border-radius:.5rem;margin:1rem 0;background:#fbeaea;border:1px solid #e4b3b5;color:#7a1c20}
.secret{font:600 1rem ui-monospace,Menlo,Consolas,monospace;background:#fff8dc;border:1px dashed #c9a227;padding:.75rem;border-radius:.4rem;user-select:all;overflow-wrap:anywhere}
.muted{color:#5c6661;font-size:.9rem}
table{width:100%;border-collapse:collapse;background:#fff;border:1px solid #e0ddd4;border-radius:.6rem}
th,td{text-align:left;padding:.5rem;border-bottom:1px solid #ece9e1;vertical-align:top}
.tag{display:inline-block;padding:0 .45rem;border-radius:1rem;background:#e6ebe8;font-size:.85rem;margin:0 .25rem .25rem 0}
.tag.live{background:#d4eddf}
.tag.warn{background:#fbeaea}
.agreement{white-space:pre-wrap;background:#fff;border:1px solid #e0ddd4;border-radius:.6rem;padding:1rem}
ul.findings li{margin:.25rem 0}
.card>h3:first-child{margin-top:0}
ul.changes{padding-left:1.2rem}
ul.changes li{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:.25rem 1rem;margin:.4rem 0}
ul.changes li p{margin:0}
ul.changes .actions{margin-top:0}
@media (max-width:40rem){
  table.stack thead{display:none}
  table.stack tr{display:block;border-bottom:1px solid #e0ddd4;padding:.5rem 0}
  table.stack td{display:block;border:0;padding:.2rem .5rem}
  table.stack td[data-label]::before{content:attr(data-label) ": ";font-weight:600}
}
`;

export const STUDIO_CSS_HASH = `'sha256-${createHash('sha256').update(STUDIO_CSS).digest('base64')}'`;

/**
 * No script, no frames, nothing from another host; forms post only to the studio itself. A page
 * whose form leads elsewhere (the consent page's redirect to an assistant) adds that origin.
 */
export function studioPolicy(formTargets: readonly string[] = []): string {
  return [
    "default-src 'none'",
    "img-src 'self'",
    `style-src ${STUDIO_CSS_HASH}`,
    `form-action 'self'${formTargets.map((t) => ` ${t}`).join('')}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/**
 * The headers of every studio answer: pages hold secrets (a new key) and take no frame, no cache.
 * Referrer-Policy same-origin: addresses holding a token (a reset link) never leave in a Referer,
 * and the studio's own form posts keep their Origin (under no-referrer browsers send `Origin:
 * null`, which the CSRF check refuses). Pages without forms may say no-referrer instead.
 */
export function studioHeaders(reply: FastifyReply, policy = studioPolicy(), referrer = 'same-origin'): FastifyReply {
  return reply
    .header('Content-Security-Policy', policy)
    .header('X-Frame-Options', 'DENY')
    .header('X-Content-Type-Options', 'nosniff')
    .header('Referrer-Policy', referrer)
    .header('Cache-Control', 'no-store')
    .header('Cross-Origin-Opener-Policy', 'same-origin');
}

export type Section = 'guides' | 'keys' | 'agreement' | 'assistants' | 'account';

export interface Layout {
  title: string;
  /** The signed-in creator's menu; absent on the sign-in pages. */
  signedIn?: { displayName: string; csrf: string; section?: Section; unconfirmedEmail?: string };
  body: Markup;
}

const MENU: ReadonlyArray<[Section, string, string]> = [
  ['guides', 'Guides', '/studio/guides'],
  ['keys', 'API keys', '/studio/keys'],
  ['assistants', 'Assistants', '/studio/assistants'],
  ['agreement', 'Agreement', '/studio/agreement'],
  ['account', 'Account', '/studio/account'],
];

/** The hidden field every form carries (checked on every POST). */
export function csrfField(token: string): Markup {
  return html`<input type="hidden" name="_csrf" value="${token}">`;
}

function header(signedIn: Layout['signedIn']): Markup {
  if (!signedIn) return html`<header><span class="brand">Creator studio</span></header>`;
  const links = MENU.map(([section, label, href]) =>
    section === signedIn.section
      ? html`<a href="${href}" aria-current="page">${label}</a>`
      : html`<a href="${href}">${label}</a>`,
  );
  return html`<header><span class="brand">Creator studio</span><nav aria-label="Studio">${links.map((l, i) => (i === 0 ? l : html` · ${l}`))}</nav>
<form method="post" action="/studio/sign-out">${csrfField(signedIn.csrf)}<button type="submit">Sign out</button></form></header>`;
}

/** Until the creator confirms their address: where reset links go, and a way to get the link again. */
function confirmBanner(signedIn: Layout['signedIn']): Markup {
  if (!signedIn?.unconfirmedEmail) return html``;
  return html`<form class="notice" method="post" action="/studio/account/confirm-email" role="status">${csrfField(signedIn.csrf)}
Confirm that <strong>${signedIn.unconfirmedEmail}</strong> is your address: open the link we mailed to it. Password reset links go there. <button class="quiet" type="submit">Send the link again</button></form>`;
}

export function layout(page: Layout): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${page.title} · Creator studio</title>
<style>${new Markup(STUDIO_CSS)}</style>
</head>
<body>
${header(page.signedIn)}
<main>
${confirmBanner(page.signedIn)}${page.body}
</main>
</body>
</html>
`.text;
}

/** A whole page, with the studio's headers. */
export function sendPage(reply: FastifyReply, page: Layout, status = 200, policy?: string): FastifyReply {
  return studioHeaders(reply, policy).code(status).type('text/html; charset=utf-8').send(layout(page));
}

/** A message in the page: `notice` for what went well, `error` for what to fix. */
export function message(kind: 'notice' | 'error', text: string | undefined): Markup {
  if (!text) return html``;
  return kind === 'error'
    ? html`<p class="error" role="alert">${text}</p>`
    : html`<p class="notice" role="status">${text}</p>`;
}

export function dateTime(ms: number | null): string {
  if (ms === null) return '—';
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
