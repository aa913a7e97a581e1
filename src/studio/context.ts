import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Runtime } from '../core/invoke.ts';
import type { KeyStore } from '../core/keys.ts';
import type { StoreScope, Stores } from '../core/stores.ts';
import type { Creator } from '../resources/profile/index.ts';
import { AccountsStore } from './accounts/accounts.store.ts';
import { EmailConfirmationsStore } from './accounts/email-confirmations.store.ts';
import type { Mailer } from './accounts/mailer.ts';
import { SessionsStore } from './accounts/sessions.store.ts';
import { AgreementStore } from './agreement.store.ts';
import type { OAuthServer } from './oauth/oauth-server.ts';
import type { Section } from './web/page.ts';
import { cookieNames } from './web/security.ts';

/** What the studio's pages work with: the service's runtime and the studio's own parts. */
export interface StudioDeps {
  runtime: Runtime;
  keys: KeyStore;
  mailer: Mailer;
  /** The authorization server: the consent and connected-assistants pages act on its grants. */
  oauth: OAuthServer;
  /** Cookies marked Secure and named `__Host-…`: the studio is served over https. */
  secureCookies: boolean;
  signUpOpen: boolean;
}

/** The studio's stores on a connection (the shared one, or a transaction's). */
export interface StudioStores {
  stores: Stores;
  accounts: AccountsStore;
  sessions: SessionsStore;
  agreement: AgreementStore;
  emailConfirmations: EmailConfirmationsStore;
}

export function studioStores(runtime: Runtime, db: StoreScope['db'] = runtime.db): StudioStores {
  const scope: StoreScope = { db, clock: runtime.clock, dialect: runtime.dialect };
  return {
    stores: runtime.stores(scope),
    accounts: new AccountsStore(scope),
    sessions: new SessionsStore(scope),
    agreement: new AgreementStore(scope),
    emailConfirmations: new EmailConfirmationsStore(scope),
  };
}

/** The signed-in creator of a request, and the form token its pages carry. */
export interface SignedIn {
  creator: Creator;
  csrf: string;
  /** Whether the creator confirmed their address; until then every page says so. */
  emailConfirmed: boolean;
  /** The session's id (studioPrincipal): what its calls make ends when it is signed out or runs out. */
  session: string;
}

/** Runs `work` in one transaction with the studio's stores on it: all of it is written, or none. */
export function inTransaction<T>(runtime: Runtime, work: (s: StudioStores) => Promise<T>): Promise<T> {
  return runtime.db.transaction().execute((trx) => work(studioStores(runtime, trx)));
}

/** The creator a request's session cookie names, if it names a live one. */
export async function sessionCreator(deps: StudioDeps, request: FastifyRequest): Promise<Creator | undefined> {
  return (await signedInSession(deps, request))?.creator;
}

/** The live session a request's cookie names and its creator. */
async function signedInSession(
  deps: StudioDeps,
  request: FastifyRequest,
): Promise<{ creator: Creator; session: string } | undefined> {
  const token = request.cookies[cookieNames(deps.secureCookies).session];
  if (token === undefined) return undefined;
  const s = studioStores(deps.runtime);
  const session = await s.sessions.find(token);
  if (!session) return undefined;
  const creator = await s.stores.creators.find(session.creatorId);
  return creator && { creator, session: session.idHash };
}

/**
 * The signed-in creator, or undefined after answering with a redirect to the sign-in page that
 * returns here afterwards.
 */
export async function requireSignedIn(
  deps: StudioDeps,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<SignedIn | undefined> {
  const signedIn = await signedInSession(deps, request);
  if (!signedIn) {
    const next = request.method === 'GET' ? request.url : '/studio/guides';
    await reply.header('Cache-Control', 'no-store').redirect(`/studio/sign-in?next=${encodeURIComponent(next)}`, 303);
    return undefined;
  }
  const { creator, session } = signedIn;
  const emailConfirmed = await studioStores(deps.runtime).emailConfirmations.isConfirmed(
    creator.creatorId,
    creator.email,
  );
  return { creator, csrf: reply.generateCsrf(), emailConfirmed, session };
}

export function signedInLayout(who: SignedIn, section: Section) {
  return {
    displayName: who.creator.displayName,
    csrf: who.csrf,
    section,
    ...(!who.emailConfirmed && { unconfirmedEmail: who.creator.email }),
  };
}
