import type { FastifyInstance } from 'fastify';
import type { KeySummary } from '../../core/keys.ts';
import { html, type Markup } from '../../resources/sales-page/index.ts';
import { requireSignedIn, type SignedIn, type StudioDeps, signedInLayout } from '../context.ts';
import { csrfField, dateTime, message, sendPage } from '../web/page.ts';
import { field, seeOther } from '../web/security.ts';
import { noticeOf } from './account-routes.ts';

const NAME_MAX = 80;
const DAY_MS = 24 * 3600_000;
/** The expiry choices of the form, in days; `never` keeps a key until it is revoked. */
const EXPIRY_DAYS = ['7', '30', '90', '365'] as const;

function scopesOf(key: KeySummary): string[] {
  return key.scope === 'read' ? ['read'] : key.publish ? ['read', 'write', 'publish'] : ['read', 'write'];
}

function stateOf(key: KeySummary, now: number): Markup {
  if (key.revokedAt !== null) return html`<span class="tag warn">revoked ${dateTime(key.revokedAt)}</span>`;
  if (key.expiresAt !== null && key.expiresAt <= now) return html`<span class="tag warn">expired</span>`;
  return html`<span class="tag live">active</span>`;
}

function keyRow(key: KeySummary, csrf: string, now: number): Markup {
  const working = key.revokedAt === null && (key.expiresAt === null || key.expiresAt > now);
  const revoke = working
    ? html`<form method="post" action="/studio/keys/${encodeURIComponent(key.keyId)}/revoke">${csrfField(csrf)}<button class="danger" type="submit" aria-label="Revoke ${key.name ?? key.hint}">Revoke</button></form>`
    : html``;
  return html`<tr data-key-id="${key.keyId}">
<td data-label="Name"><strong>${key.name ?? '(no name)'}</strong> <span class="muted">${key.hint}</span></td>
<td data-label="Scopes">${scopesOf(key).map((s) => html`<span class="tag">${s}</span>`)}</td>
<td data-label="Created">${dateTime(key.createdAt)}</td>
<td data-label="Last used">${key.lastUsedAt === null ? 'never' : dateTime(key.lastUsedAt)}</td>
<td data-label="Expires">${key.expiresAt === null ? 'never' : dateTime(key.expiresAt)}</td>
<td data-label="State">${stateOf(key, now)}</td>
<td>${revoke}</td>
</tr>`;
}

interface KeysPage {
  who: SignedIn;
  keys: KeySummary[];
  now: number;
  /** The secret of a key just made: shown this once. */
  made?: { name: string; key: string };
  error?: string;
  notice?: string;
}

function keysPage(p: KeysPage): Markup {
  const shown = p.made
    ? html`<section class="card" aria-labelledby="new-key"><h2 id="new-key">Your new key “${p.made.name}”</h2>
<p>Copy it now and paste it into your assistant's settings. <strong>It is not shown again</strong>: if you lose it, revoke it and make another.</p>
<p class="secret" data-secret>${p.made.key}</p></section>`
    : html``;
  const list =
    p.keys.length === 0
      ? html`<p>No keys yet.</p>`
      : html`<table class="stack"><thead><tr><th>Name</th><th>Scopes</th><th>Created</th><th>Last used</th><th>Expires</th><th>State</th><th></th></tr></thead>
<tbody>${p.keys.map((k) => keyRow(k, p.who.csrf, p.now))}</tbody></table>`;
  return html`<h1>API keys</h1>
${message('notice', p.notice)}${message('error', p.error)}${shown}
<p>A key lets an assistant or a script act for you through the API and MCP. Give each its own key, with the least it needs.</p>
${list}
<h2>Create a key</h2>
<form class="card" method="post" action="/studio/keys">
${csrfField(p.who.csrf)}
<label for="name">Name</label>
<input id="name" name="name" type="text" required maxlength="${NAME_MAX}" placeholder="Claude on my laptop">
<fieldset><legend>Scopes</legend>
<label class="check"><input type="radio" name="scope" value="read"> Read: look at guides, change nothing</label>
<label class="check"><input type="radio" name="scope" value="write" checked> Read and write: build and edit guides</label>
<label class="check"><input type="checkbox" name="publish" value="on"> Also publish: push changes live to buyers (needs read and write)</label>
</fieldset>
<label for="expires">Expires</label>
<select id="expires" name="expires">
<option value="never">Never (until revoked)</option>
${EXPIRY_DAYS.map((d) => html`<option value="${d}"${d === '90' ? html` selected` : html``}>In ${d} days</option>`)}
</select>
<div class="actions"><button type="submit">Create key</button></div>
</form>`;
}

/** The API keys page: make a key (its secret shown once), list them without secrets, revoke one. */
export function registerKeyRoutes(app: FastifyInstance, deps: StudioDeps): void {
  const { runtime, keys } = deps;
  const render = async (p: Omit<KeysPage, 'keys' | 'now'>, status = 200) => {
    const list = await keys.list(p.who.creator.creatorId);
    const page = { ...p, keys: list.reverse(), now: runtime.clock.now() };
    return { title: 'API keys', signedIn: signedInLayout(p.who, 'keys'), body: keysPage(page), status };
  };

  app.get('/keys', async (request, reply) => {
    const who = await requireSignedIn(deps, request, reply);
    if (!who) return reply;
    const page = await render({ who, notice: noticeOf(request) });
    return sendPage(reply, page, page.status);
  });

  app.post('/keys', async (request, reply) => {
    const who = await requireSignedIn(deps, request, reply);
    if (!who) return reply;
    const name = field(request.body, 'name').trim();
    const scope = field(request.body, 'scope');
    const publish = field(request.body, 'publish') === 'on';
    const expires = field(request.body, 'expires');
    let error: string | undefined;
    if (name === '' || name.length > NAME_MAX) error = `Give the key a name of at most ${NAME_MAX} characters.`;
    else if (scope !== 'read' && scope !== 'write') error = 'Choose read, or read and write.';
    else if (publish && scope !== 'write')
      error = 'Publishing needs read and write: choose both, or leave publish off.';
    else if (expires !== 'never' && !(EXPIRY_DAYS as readonly string[]).includes(expires))
      error = 'Choose when the key expires.';
    if (error) {
      const page = await render({ who, error }, 400);
      return sendPage(reply, page, page.status);
    }
    const expiresAt = expires === 'never' ? null : runtime.clock.now() + Number(expires) * DAY_MS;
    const made = await keys.create({
      creatorId: who.creator.creatorId,
      name,
      scope: scope as 'read' | 'write',
      publish,
      expiresAt,
    });
    const page = await render({ who, made: { name, key: made.key } }, 201);
    return sendPage(reply, page, page.status);
  });

  app.post<{ Params: { keyId: string } }>('/keys/:keyId/revoke', async (request, reply) => {
    const who = await requireSignedIn(deps, request, reply);
    if (!who) return reply;
    // Only the creator's own key: another creator's id is as unknown as a made-up one.
    if (!(await keys.revoke(request.params.keyId, who.creator.creatorId))) {
      const page = await render({ who, error: 'No such working key of yours: it may be revoked already.' }, 404);
      return sendPage(reply, page, page.status);
    }
    return seeOther(reply, '/studio/keys?done=key-revoked');
  });
}
