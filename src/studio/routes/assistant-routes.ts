import type { FastifyInstance, FastifyReply } from 'fastify';
import { html, type Markup } from '../../resources/sales-page/index.ts';
import { requireSignedIn, type SignedIn, type StudioDeps, signedInLayout } from '../context.ts';
import { OAUTH_SCOPES, type OAuthScope } from '../oauth/provider.ts';
import { csrfField, dateTime, message, sendPage, studioPolicy } from '../web/page.ts';
import { field, seeOther } from '../web/security.ts';

const SCOPE_TEXT: Record<OAuthScope, string> = {
  read: 'Read your guides, spots and photos',
  write: 'Build and edit your guides (prices included)',
  publish: 'Publish changes live to buyers',
};

const EXPIRED = html`<h1>This request has expired</h1>
<p class="error" role="alert">The assistant's request to connect is no longer open. Start connecting again from the assistant.</p>`;

interface Request {
  uid: string;
  clientId: string;
  clientName: string;
  redirectUri: string;
  resource: string;
  requested: Set<OAuthScope>;
}

function consentPage(who: SignedIn, r: Request): Markup {
  const redirectHost = new URL(r.redirectUri).host;
  const box = (scope: OAuthScope) => {
    // Publish starts unticked even when asked for: the creator opts in to publishing live.
    const checked = scope === 'read' || (scope === 'write' && r.requested.has('write'));
    if (scope !== 'read' && !r.requested.has(scope)) return html``;
    const locked = scope === 'read';
    return html`<label class="check"><input type="checkbox" name="scope_${scope}" value="on"${checked ? html` checked` : html``}${locked ? html` disabled` : html``}> ${SCOPE_TEXT[scope]}${scope === 'publish' ? html` <span class="muted">(needs edit)</span>` : html``}</label>`;
  };
  return html`<h1>Connect ${r.clientName}?</h1>
<section class="card">
<p><strong>${r.clientName}</strong> wants to act for <strong>${who.creator.displayName}</strong> (${who.creator.email}).</p>
<p class="muted">Client: ${r.clientId}<br>Returns to: ${redirectHost}<br>Resource: ${r.resource}</p>
</section>
<form class="card" method="post" action="/studio/oauth/${r.uid}">
${csrfField(who.csrf)}
<fieldset><legend>It may</legend>${OAUTH_SCOPES.map(box)}</fieldset>
<p class="muted">You can disconnect it at any time under Assistants.</p>
<div class="actions"><button type="submit" name="decision" value="allow">Allow</button><button class="quiet" type="submit" name="decision" value="deny">Deny</button></div>
</form>`;
}

interface AuthorizationRow {
  grant_id: string;
  client_id: string;
  client_name: string;
  scopes: string;
  granted_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

function assistantsPage(who: SignedIn, rows: AuthorizationRow[], notice: string | undefined, error?: string): Markup {
  const live = rows.filter((r) => r.revoked_at === null);
  const list =
    live.length === 0
      ? html`<p>No assistant is connected. Assistants that speak MCP authorization (hosted chat assistants among them) connect with the MCP address alone and ask you here.</p>`
      : html`<table class="stack"><thead><tr><th>Assistant</th><th>Scopes</th><th>Granted</th><th>Last used</th><th></th></tr></thead><tbody>${live.map(
          (
            r,
          ) => html`<tr data-grant-id="${r.grant_id}"><td data-label="Assistant"><strong>${r.client_name}</strong><br><span class="muted">${r.client_id}</span></td>
<td data-label="Scopes">${r.scopes.split(' ').map((s) => html`<span class="tag">${s}</span>`)}</td>
<td data-label="Granted">${dateTime(Number(r.granted_at))}</td>
<td data-label="Last used">${r.last_used_at === null ? 'never' : dateTime(Number(r.last_used_at))}</td>
<td><form method="post" action="/studio/assistants/${encodeURIComponent(r.grant_id)}/revoke">${csrfField(who.csrf)}<button class="danger" type="submit" aria-label="Disconnect ${r.client_name}">Disconnect</button></form></td></tr>`,
        )}</tbody></table>`;
  return html`<h1>Connected assistants</h1>${message('notice', notice)}${message('error', error)}${list}`;
}

/** The consent page of MCP authorization, and the list of assistants a creator connected. */
export function registerAssistantRoutes(app: FastifyInstance, deps: StudioDeps): void {
  const { runtime, oauth } = deps;

  /** The open authorization request behind this page, read through the provider's own cookie. */
  async function openRequest(request: import('fastify').FastifyRequest, reply: FastifyReply, uid: string) {
    const provider = await oauth.provider();
    const details = await provider.interactionDetails(request.raw, reply.raw).catch(() => undefined);
    if (!details || details.uid !== uid) return undefined;
    const params = details.params as Record<string, unknown>;
    const clientId = String(params.client_id ?? '');
    const client = await provider.Client.find(clientId).catch(() => undefined);
    if (!client) return undefined;
    const requested = new Set(
      String(params.scope ?? '')
        .split(' ')
        .filter((s): s is OAuthScope => (OAUTH_SCOPES as readonly string[]).includes(s)),
    );
    const resources = [params.resource].flat().filter((v): v is string => typeof v === 'string');
    return {
      uid,
      clientId,
      clientName: String(client.clientName ?? client.clientId),
      redirectUri: String(params.redirect_uri ?? ''),
      resource: resources[0] ?? oauth.resources().mcp,
      requested: requested.size === 0 ? new Set<OAuthScope>(['read', 'write']) : requested,
    };
  }

  const consentPolicy = (redirectUri: string) => studioPolicy([new URL(redirectUri).origin]);

  app.get<{ Params: { uid: string } }>('/oauth/:uid', async (request, reply) => {
    const who = await requireSignedIn(deps, request, reply);
    if (!who) return reply;
    const open = await openRequest(request, reply, request.params.uid);
    if (!open) return sendPage(reply, { title: 'Request expired', body: EXPIRED }, 400);
    return sendPage(
      reply,
      { title: 'Connect an assistant', body: consentPage(who, open) },
      200,
      consentPolicy(open.redirectUri),
    );
  });

  app.post<{ Params: { uid: string } }>('/oauth/:uid', async (request, reply) => {
    const who = await requireSignedIn(deps, request, reply);
    if (!who) return reply;
    const open = await openRequest(request, reply, request.params.uid);
    if (!open) return sendPage(reply, { title: 'Request expired', body: EXPIRED }, 400);
    const provider = await oauth.provider();
    let result: Record<string, unknown>;
    if (field(request.body, 'decision') !== 'allow') {
      result = { error: 'access_denied', error_description: 'The creator declined to connect this assistant.' };
    } else {
      // Only scopes the client asked for, as the creator left them ticked; read always; publish only with write.
      const chosen: OAuthScope[] = ['read'];
      const write = open.requested.has('write') && field(request.body, 'scope_write') === 'on';
      if (write) chosen.push('write');
      if (write && open.requested.has('publish') && field(request.body, 'scope_publish') === 'on')
        chosen.push('publish');
      const grant = new provider.Grant({ accountId: who.creator.creatorId, clientId: open.clientId });
      // What the token carries: the resource scopes the creator chose.
      grant.addResourceScope(open.resource, chosen.join(' '));
      const grantId = await grant.save();
      await runtime.db
        .insertInto('assistant_authorizations')
        .values({
          grant_id: grantId,
          creator_id: who.creator.creatorId,
          client_id: open.clientId,
          client_name: open.clientName.slice(0, 200),
          scopes: chosen.join(' '),
          resource: open.resource,
          granted_at: runtime.clock.now(),
          last_used_at: null,
          revoked_at: null,
        })
        .execute();
      result = { login: { accountId: who.creator.creatorId }, consent: { grantId } };
    }
    const next = await provider.interactionResult(request.raw, reply.raw, result, { mergeWithLastSubmission: false });
    return reply
      .header('Content-Security-Policy', consentPolicy(open.redirectUri))
      .header('Cache-Control', 'no-store')
      .redirect(next, 303);
  });

  const list = (creatorId: string) =>
    runtime.db
      .selectFrom('assistant_authorizations')
      .selectAll()
      .where('creator_id', '=', creatorId)
      .orderBy('granted_at', 'desc')
      .execute();

  app.get('/assistants', async (request, reply) => {
    const who = await requireSignedIn(deps, request, reply);
    if (!who) return reply;
    const done = (request.query as Record<string, unknown>).done === 'revoked';
    const notice = done ? 'The assistant is disconnected: its tokens stopped working.' : undefined;
    return sendPage(reply, {
      title: 'Assistants',
      signedIn: signedInLayout(who, 'assistants'),
      body: assistantsPage(who, await list(who.creator.creatorId), notice),
    });
  });

  app.post<{ Params: { grantId: string } }>('/assistants/:grantId/revoke', async (request, reply) => {
    const who = await requireSignedIn(deps, request, reply);
    if (!who) return reply;
    const rows = await list(who.creator.creatorId);
    // Only the creator's own authorization: another's id is as unknown as a made-up one.
    if (!rows.some((r) => r.grant_id === request.params.grantId && r.revoked_at === null)) {
      const body = assistantsPage(who, rows, undefined, 'No such connected assistant of yours.');
      return sendPage(reply, { title: 'Assistants', signedIn: signedInLayout(who, 'assistants'), body }, 404);
    }
    await oauth.revoke(request.params.grantId);
    return seeOther(reply, '/studio/assistants?done=revoked');
  });
}
