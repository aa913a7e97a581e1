import type { FastifyInstance } from 'fastify';
import { html, type Markup } from '../../resources/sales-page/index.ts';
import type { Acceptance, AgreementVersion } from '../agreement.store.ts';
import {
  inTransaction,
  requireSignedIn,
  type SignedIn,
  type StudioDeps,
  signedInLayout,
  studioStores,
} from '../context.ts';
import { csrfField, dateTime, message, sendPage } from '../web/page.ts';
import { field, seeOther } from '../web/security.ts';

function agreementPage(
  who: SignedIn,
  current: AgreementVersion,
  accepted: Acceptance | undefined,
  note: { notice?: string; error?: string },
): Markup {
  const upToDate = who.creator.agreementAccepted;
  const state = upToDate
    ? html`<p class="notice" role="status">You accepted version ${current.version}${accepted?.version === current.version ? html` on ${dateTime(accepted.acceptedAt)}` : html``}. Prices and publishing are open to you and your assistants.</p>`
    : html`<p class="error" role="alert">${accepted ? `You accepted version ${accepted.version}; version ${current.version} replaces it.` : 'You have not accepted the agreement yet.'} Until you accept it, setting a price and publishing answer agreement_outdated.</p>`;
  const form = upToDate
    ? html``
    : html`<form class="card" method="post" action="/studio/agreement">
${csrfField(who.csrf)}<input type="hidden" name="version" value="${current.version}">
<label class="check"><input type="checkbox" name="accept" value="yes" required> I have read version ${current.version} of the creator agreement and accept it.</label>
<div class="actions"><button type="submit">Accept the agreement</button></div>
</form>`;
  return html`<h1>${current.title}</h1>
${message('notice', note.notice)}${message('error', note.error)}
<p class="muted">Version ${current.version}, published ${dateTime(current.publishedAt)}</p>
${state}
<div class="agreement" data-agreement-version="${current.version}">${current.body}</div>
${form}`;
}

/** The creator agreement: its current text and version, and accepting it. */
export function registerAgreementRoutes(app: FastifyInstance, deps: StudioDeps): void {
  const { runtime } = deps;
  const show = async (who: SignedIn, note: { notice?: string; error?: string }, status = 200) => {
    const s = studioStores(runtime);
    const [current, accepted] = await Promise.all([
      s.agreement.current(),
      s.agreement.lastAccepted(who.creator.creatorId),
    ]);
    return {
      title: 'Creator agreement',
      signedIn: signedInLayout(who, 'agreement'),
      body: agreementPage(who, current, accepted, note),
      status,
    };
  };

  app.get('/agreement', async (request, reply) => {
    const who = await requireSignedIn(deps, request, reply);
    if (!who) return reply;
    const accepted = (request.query as Record<string, unknown>).done === 'accepted';
    const page = await show(who, accepted ? { notice: 'Thank you: the agreement is accepted.' } : {});
    return sendPage(reply, page, page.status);
  });

  app.post('/agreement', async (request, reply) => {
    const who = await requireSignedIn(deps, request, reply);
    if (!who) return reply;
    const version = Number(field(request.body, 'version'));
    if (field(request.body, 'accept') !== 'yes' || !Number.isSafeInteger(version)) {
      const page = await show(who, { error: 'Tick the box to accept the agreement.' }, 400);
      return sendPage(reply, page, page.status);
    }
    // The version the page showed: a newer one published meanwhile must be read first.
    const done = await inTransaction(runtime, (s) => s.agreement.accept(who.creator.creatorId, version));
    if (!done) {
      const page = await show(
        who,
        { error: 'A newer version was published while you read: read it, then accept it.' },
        409,
      );
      return sendPage(reply, page, page.status);
    }
    return seeOther(reply, '/studio/agreement?done=accepted');
  });
}
