import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../core/errors.ts';
import { html } from '../../resources/sales-page/index.ts';
import { RESET_LINK_MS } from '../accounts/accounts.store.ts';
import { hashPassword, PASSWORD_MIN, passwordMatches, passwordProblem } from '../accounts/passwords.ts';
import { SESSION_ABSOLUTE_MS } from '../accounts/sessions.store.ts';
import { SignInThrottle } from '../accounts/sign-in-throttle.ts';
import {
  inTransaction,
  requireSignedIn,
  type StudioDeps,
  sessionCreator,
  signedInLayout,
  studioStores,
} from '../context.ts';
import { sendPage } from '../web/page.ts';
import { cookieNames, field, HOME, safeNext, seeOther } from '../web/security.ts';
import { accountPage, deadLink, forgotForm, resetForm, signInForm, signUpForm } from './account-pages.ts';
import { sendConfirmation } from './email-routes.ts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@.]+$/;
const DISPLAY_NAME_MAX = 80;
const EMAIL_MAX = 254;
const WRONG_CREDENTIALS = 'That email and password do not match an account.';

/** Messages a redirect may ask a page to show, by code: no text travels in the address. */
const NOTICES: Record<string, string> = {
  'signed-out': 'You are signed out.',
  'signed-out-everywhere': 'Every session of your account has ended.',
  'password-changed': 'Your password is changed; other browsers were signed out.',
  'key-revoked': 'The key is revoked: it stops working at once.',
  'confirmation-sent': 'A new link to confirm your address is on its way. It works for 7 days.',
};

export function noticeOf(request: FastifyRequest): string | undefined {
  const code = (request.query as Record<string, unknown>)?.done;
  return typeof code === 'string' && Object.hasOwn(NOTICES, code) ? NOTICES[code] : undefined;
}

/** Sign-up, sign-in, sign-out (here or everywhere), password change and reset by emailed link. */
export function registerAccountRoutes(app: FastifyInstance, deps: StudioDeps): void {
  const { runtime } = deps;
  const names = cookieNames(deps.secureCookies);

  /**
   * A fresh session for the creator, replacing whatever session cookie the browser had (fixation:
   * a token planted before sign-in is ended, never promoted).
   */
  async function startSession(request: FastifyRequest, reply: FastifyReply, creatorId: string): Promise<void> {
    const sessions = studioStores(runtime).sessions;
    await sessions.end(request.cookies[names.session]);
    const token = await sessions.create(creatorId);
    reply.setCookie(names.session, token, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: deps.secureCookies,
      maxAge: SESSION_ABSOLUTE_MS / 1000,
    });
  }

  function endCookie(reply: FastifyReply): void {
    reply.clearCookie(names.session, { path: '/', httpOnly: true, sameSite: 'lax', secure: deps.secureCookies });
  }

  const limitAddress = (request: FastifyRequest) => runtime.rateLimits.consumeFor('sign-in-address', request.ip);
  const throttle = new SignInThrottle(runtime.rateLimits);

  app.get('/', async (request, reply) =>
    seeOther(reply, (await sessionCreator(deps, request)) ? HOME : '/studio/sign-in'),
  );

  app.get('/sign-in', async (request, reply) => {
    const next = safeNext((request.query as Record<string, unknown>).next);
    if (await sessionCreator(deps, request)) return seeOther(reply, next);
    const form = { csrf: reply.generateCsrf(), next, notice: noticeOf(request) };
    return sendPage(reply, { title: 'Sign in', body: signInForm(form, deps.signUpOpen) });
  });

  app.post('/sign-in', async (request, reply) => {
    await limitAddress(request);
    const email = field(request.body, 'email').trim().toLowerCase().slice(0, EMAIL_MAX);
    const password = field(request.body, 'password');
    const next = safeNext(field(request.body, 'next'));
    const attempt = { address: request.ip, email };
    const waitMs = await throttle.waitMs(attempt);
    if (waitMs > 0) {
      throw new ApiError('rate_limited', 'Too many failed sign-ins: wait before trying again.', {
        retryAfterMs: waitMs,
      });
    }
    const s = studioStores(runtime);
    const creator = email === '' ? undefined : await s.stores.creators.findByEmail(email);
    const stored = creator?.active ? await s.accounts.passwordHash(creator.creatorId) : undefined;
    // The hash is checked on every path, the decoy's when there is no account: a refusal takes as
    // long whether or not the email has one.
    const matches = await passwordMatches(stored, password);
    if (!creator || !matches) {
      if ((await throttle.failed(attempt)) && creator?.active) warnOfAttack(request, creator.email);
      const form = { csrf: reply.generateCsrf(), next, email, error: WRONG_CREDENTIALS };
      return sendPage(reply, { title: 'Sign in', body: signInForm(form, deps.signUpOpen) }, 401);
    }
    await throttle.succeeded(attempt);
    await startSession(request, reply, creator.creatorId);
    return seeOther(reply, next);
  });

  /**
   * Mails the creator that someone is guessing their password, once a day at most. Not awaited:
   * a sign-in for an account must take as long as one for nobody.
   */
  function warnOfAttack(request: FastifyRequest, email: string): void {
    throttle
      .warnNow(email)
      .then((now) => (now ? deps.mailer.send(attackMail(email, request.ip, runtime.urls.studioUrl)) : undefined))
      .catch((err) => request.log.warn({ err }, 'the mail that warns of failed sign-ins could not be sent'));
  }

  app.get('/sign-up', async (request, reply) => {
    if (!deps.signUpOpen) return signUpClosed(reply);
    const next = safeNext((request.query as Record<string, unknown>).next);
    return sendPage(reply, {
      title: 'Create an account',
      body: signUpForm({ csrf: reply.generateCsrf(), next }, PASSWORD_MIN),
    });
  });

  app.post('/sign-up', async (request, reply) => {
    if (!deps.signUpOpen) return signUpClosed(reply);
    await limitAddress(request);
    const email = field(request.body, 'email').trim().toLowerCase();
    const name = field(request.body, 'name').trim();
    const password = field(request.body, 'password');
    const next = safeNext(field(request.body, 'next'));
    const refuse = (error: string, status = 400) =>
      sendPage(
        reply,
        {
          title: 'Create an account',
          body: signUpForm({ csrf: reply.generateCsrf(), next, email, name, error }, PASSWORD_MIN),
        },
        status,
      );
    if (!EMAIL.test(email) || email.length > EMAIL_MAX)
      return refuse('Enter an email address, such as ana@example.com.');
    if (name === '' || name.length > DISPLAY_NAME_MAX)
      return refuse(`Enter your name, at most ${DISPLAY_NAME_MAX} characters.`);
    const problem = passwordProblem(password, email);
    if (problem) return refuse(problem);
    const passwordHash = await hashPassword(password);
    const creatorId = await inTransaction(runtime, async (s) => {
      if (await s.stores.creators.findByEmail(email)) return undefined;
      const creator = await s.stores.creators.create({ email, displayName: name, agreementAccepted: false });
      await s.accounts.setPassword(creator.creatorId, passwordHash);
      return creator.creatorId;
    }).catch(async (err) => {
      // Two sign-ups with one address at once: the unique email refuses the second.
      if (await studioStores(runtime).stores.creators.findByEmail(email)) return undefined;
      throw err;
    });
    if (creatorId === undefined) {
      return refuse('An account with this email exists: sign in, or reset its password.', 409);
    }
    await startSession(request, reply, creatorId);
    // The account stands without it: the banner on every page sends the link again.
    await sendConfirmation(deps, { creatorId, email }).catch((err) =>
      request.log.warn({ err }, 'the mail that confirms a new address could not be sent'),
    );
    return seeOther(reply, next);
  });

  function signUpClosed(reply: FastifyReply) {
    const body = deadEnd('Sign-up is closed', 'Accounts on this service are made by its operator. Ask them for one.');
    return sendPage(reply, { title: 'Sign-up is closed', body }, 403);
  }

  app.post('/sign-out', async (request, reply) => {
    await studioStores(runtime).sessions.end(request.cookies[names.session]);
    endCookie(reply);
    return seeOther(reply, '/studio/sign-in?done=signed-out');
  });

  app.post('/sign-out-everywhere', async (request, reply) => {
    const who = await requireSignedIn(deps, request, reply);
    if (!who) return reply;
    await studioStores(runtime).sessions.endAll(who.creator.creatorId);
    endCookie(reply);
    return seeOther(reply, '/studio/sign-in?done=signed-out-everywhere');
  });

  app.get('/account', async (request, reply) => {
    const who = await requireSignedIn(deps, request, reply);
    if (!who) return reply;
    const page = { csrf: who.csrf, email: who.creator.email, name: who.creator.displayName, notice: noticeOf(request) };
    return sendPage(reply, {
      title: 'Account',
      signedIn: signedInLayout(who, 'account'),
      body: accountPage(page, PASSWORD_MIN),
    });
  });

  app.post('/account/password', async (request, reply) => {
    const who = await requireSignedIn(deps, request, reply);
    if (!who) return reply;
    await limitAddress(request);
    const s = studioStores(runtime);
    const current = field(request.body, 'current');
    const password = field(request.body, 'password');
    const refuse = (error: string) => {
      const page = { csrf: who.csrf, email: who.creator.email, name: who.creator.displayName, error };
      return sendPage(
        reply,
        { title: 'Account', signedIn: signedInLayout(who, 'account'), body: accountPage(page, PASSWORD_MIN) },
        400,
      );
    };
    if (!(await passwordMatches(await s.accounts.passwordHash(who.creator.creatorId), current))) {
      return refuse('The current password is not right.');
    }
    const problem = passwordProblem(password, who.creator.email);
    if (problem) return refuse(problem);
    await s.accounts.setPassword(who.creator.creatorId, await hashPassword(password));
    await s.sessions.endAll(who.creator.creatorId);
    await startSession(request, reply, who.creator.creatorId);
    return seeOther(reply, '/studio/account?done=password-changed');
  });

  const SENT =
    'If an account uses that address, a link to choose a new password is on its way. It works for one hour, once.';

  app.get('/forgot', async (_request, reply) =>
    sendPage(reply, { title: 'Reset your password', body: forgotForm({ csrf: reply.generateCsrf() }) }),
  );

  app.post('/forgot', async (request, reply) => {
    await limitAddress(request);
    const email = field(request.body, 'email').trim().toLowerCase().slice(0, EMAIL_MAX);
    const s = studioStores(runtime);
    const creator = EMAIL.test(email) ? await s.stores.creators.findByEmail(email) : undefined;
    // The same answer whether or not the address has an account, and whether or not its mail is
    // held back: nobody learns who has one. Failed sign-ins never stop this mail (it is how a
    // creator under attack gets back in); only the mail limit of the account does, and every link
    // works for an hour, so while later ones are held back an earlier one in the inbox still works.
    if (creator?.active && !(await runtime.rateLimits.refusalFor('account-mails', creator.email))) {
      const token = await s.accounts.createResetLink(creator.creatorId, RESET_LINK_MS);
      // Not awaited: the mail server's round trip would tell who has an account.
      deps.mailer
        .send(resetMail(creator.email, `${runtime.urls.studioUrl}/reset?token=${token}`))
        .catch((err) => request.log.warn({ err }, 'the reset mail could not be sent'));
    }
    return sendPage(reply, {
      title: 'Reset your password',
      body: forgotForm({ csrf: reply.generateCsrf(), notice: SENT }),
    });
  });

  app.get('/reset', async (request, reply) => {
    const token = (request.query as Record<string, unknown>).token;
    // Opening the link spends nothing (mail scanners open links too); setting the password does.
    const creatorId = await studioStores(runtime).accounts.resetLinkCreator(token);
    if (creatorId === undefined || typeof token !== 'string') {
      return sendPage(reply, { title: 'Link expired', body: deadLink }, 410);
    }
    return sendPage(reply, {
      title: 'New password',
      body: resetForm({ csrf: reply.generateCsrf(), token }, PASSWORD_MIN),
    });
  });

  app.post('/reset', async (request, reply) => {
    await limitAddress(request);
    const token = field(request.body, 'token');
    const password = field(request.body, 'password');
    const s = studioStores(runtime);
    const creatorId = await s.accounts.resetLinkCreator(token);
    const creator = creatorId === undefined ? undefined : await s.stores.creators.find(creatorId);
    if (!creator?.active) return sendPage(reply, { title: 'Link expired', body: deadLink }, 410);
    const problem = passwordProblem(password, creator.email);
    if (problem) {
      const body = resetForm({ csrf: reply.generateCsrf(), token, error: problem }, PASSWORD_MIN);
      return sendPage(reply, { title: 'New password', body }, 400);
    }
    const passwordHash = await hashPassword(password);
    const spent = await inTransaction(runtime, async (t) => {
      if ((await t.accounts.spendResetLink(token)) !== creator.creatorId) return false;
      await t.accounts.setPassword(creator.creatorId, passwordHash);
      await t.sessions.endAll(creator.creatorId);
      return true;
    });
    if (!spent) return sendPage(reply, { title: 'Link expired', body: deadLink }, 410);
    await startSession(request, reply, creator.creatorId);
    return seeOther(reply, HOME);
  });
}

export function resetMail(to: string, link: string) {
  return {
    to,
    subject: 'Choose a new password for your creator studio',
    text: `Someone (we hope you) asked to choose a new password for the creator studio account of ${to}.\n\nOpen this link within an hour to choose it; it works once:\n${link}\n\nIf it was not you, ignore this message: your password stays as it is.\n`,
  };
}

function attackMail(to: string, address: string, studioUrl: string) {
  return {
    to,
    subject: 'Someone is trying to sign in to your creator studio account',
    text: `Someone tried to sign in to the creator studio account of ${to} with wrong passwords, most recently from the address ${address}. They did not get in.\n\nFor now, sign-ins from addresses where you have not signed in before are slowed down. Where you usually sign in, your password works as always. If you cannot get in, choose a new password from the sign-in page (${studioUrl}/forgot): reset links are never held back.\n\nIf it was you, nothing needs doing. If your password is one you use elsewhere, change it.\n`,
  };
}

function deadEnd(title: string, text: string) {
  return html`<h1>${title}</h1><p>${text}</p>`;
}
