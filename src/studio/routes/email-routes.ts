import type { FastifyInstance, FastifyReply } from 'fastify';
import { html } from '../../resources/sales-page/index.ts';
import { requireSignedIn, type StudioDeps, studioStores } from '../context.ts';
import { csrfField, sendPage } from '../web/page.ts';
import { field, HOME, seeOther } from '../web/security.ts';

const DEAD_LINK = html`<h1>This link no longer works</h1>
<p class="error" role="alert">The link has expired, was replaced by a newer one, or your address was already confirmed.</p>
<p><a href="/studio/account">Sign in and send a new one</a></p>`;

export function confirmationMail(to: string, link: string) {
  return {
    to,
    subject: 'Confirm your email address for the creator studio',
    text: `An account in the creator studio was made with ${to}.\n\nOpen this link within 7 days to confirm that the address is yours; password reset links will come here:\n${link}\n\nIf you did not make it, ignore this message.\n`,
  };
}

/** Mails the creator a link that confirms their address: at sign-up, and again when asked. */
export async function sendConfirmation(deps: StudioDeps, creator: { creatorId: string; email: string }) {
  const token = await studioStores(deps.runtime).emailConfirmations.createLink(creator.creatorId, creator.email);
  await deps.mailer.send(
    confirmationMail(creator.email, `${deps.runtime.urls.studioUrl}/confirm-email?token=${token}`),
  );
}

/** Confirming the address by its mailed link (signed in or not: the link is the proof), and asking again. */
export function registerEmailRoutes(app: FastifyInstance, deps: StudioDeps): void {
  const { runtime } = deps;
  const deadLink = (reply: FastifyReply) => sendPage(reply, { title: 'Link expired', body: DEAD_LINK }, 410);

  app.get('/confirm-email', async (request, reply) => {
    const token = (request.query as Record<string, unknown>).token;
    // Opening the link confirms nothing (mail scanners open links too); the button does.
    const found = await studioStores(runtime).emailConfirmations.link(token);
    if (!found || typeof token !== 'string') return deadLink(reply);
    const body = html`<h1>Confirm your email address</h1>
<form class="card" method="post" action="/studio/confirm-email">
${csrfField(reply.generateCsrf())}<input type="hidden" name="token" value="${token}">
<p>Confirm that <strong>${found.email}</strong> is your address.</p>
<div class="actions"><button type="submit">Confirm ${found.email}</button></div>
</form>`;
    return sendPage(reply, { title: 'Confirm your email address', body });
  });

  app.post('/confirm-email', async (request, reply) => {
    await runtime.rateLimits.consumeFor('sign-in-address', request.ip);
    const confirmed = await studioStores(runtime).emailConfirmations.confirm(field(request.body, 'token'));
    if (!confirmed) return deadLink(reply);
    const body = html`<h1>Your address is confirmed</h1>
<p class="notice" role="status">${confirmed.email} is confirmed: password reset links will go there.</p>
<p><a href="${HOME}">Open the studio</a></p>`;
    return sendPage(reply, { title: 'Address confirmed', body });
  });

  app.post('/account/confirm-email', async (request, reply) => {
    const who = await requireSignedIn(deps, request, reply);
    if (!who) return reply;
    // Each link is a mail sent: counted like a reset request, per address and per account.
    await runtime.rateLimits.consumeFor('sign-in-address', request.ip);
    await runtime.rateLimits.consumeFor('account-mails', who.creator.email);
    if (!who.emailConfirmed) await sendConfirmation(deps, who.creator);
    return seeOther(reply, '/studio/account?done=confirmation-sent');
  });
}
