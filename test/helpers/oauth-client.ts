import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DpopSession } from '@modelcontextprotocol/client';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { csrfOf, type StudioBrowser } from './studio.ts';

/** Where the authorization server sends the browser back: a local page that keeps each code. */
export interface Callback {
  url: string;
  /** The next `code` (or `error`) that arrives. */
  next(): Promise<URLSearchParams>;
  close(): Promise<void>;
}

export async function startCallback(): Promise<Callback> {
  const arrived: URLSearchParams[] = [];
  const waiting: Array<(p: URLSearchParams) => void> = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const params = url.searchParams;
    // Only an authorization response counts (it carries a code or an error): a browser also asks
    // this origin for its icon, whenever it likes, and that request taken as a callback would hand
    // a test an empty one, and every later test the one before it.
    if (url.pathname !== '/callback' || !(params.has('code') || params.has('error'))) {
      res.writeHead(404).end();
      return;
    }
    const wake = waiting.shift();
    if (wake) wake(params);
    else arrived.push(params);
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<!doctype html><title>Connected</title><p>You can close this tab.</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/callback`,
    next: () => {
      const ready = arrived.shift();
      return ready ? Promise.resolve(ready) : new Promise((resolve) => waiting.push(resolve));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An assistant's OAuth state, in memory, as the MCP SDK's OAuthClientProvider asks for it. */
export class MemoryOAuthClient implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  /** The last authorization address the SDK asked the user to open. */
  authorizationUrl: URL | undefined;
  readonly redirect: string;
  readonly metadata: OAuthClientMetadata;
  clientMetadataUrl?: string;

  constructor(redirect: string, name = 'Test Assistant', scope = 'read write') {
    this.redirect = redirect;
    this.metadata = {
      client_name: name,
      redirect_uris: [redirect],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      scope,
    };
  }
  get redirectUrl() {
    return this.redirect;
  }
  get clientMetadata() {
    return this.metadata;
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/**
 * The same assistant with DPoP on, as the 2.x client line turns it on: its provider answers a DPoP
 * session (one key for the registration's life), and the client then sends a proof to the token
 * endpoint and with every request to the resource. The 1.x line has no DPoP.
 */
export class DpopOAuthClient extends MemoryOAuthClient {
  private session: Promise<DpopSession> | undefined;

  dpop(): Promise<DpopSession> {
    this.session ??= DpopSession.create();
    return this.session;
  }
}

/** Behind an https PUBLIC_URL the provider reads the scheme from the proxy's header. */
const PROXIED = { 'x-forwarded-proto': 'https' };

/**
 * The creator's side of an authorization, without Chromium: a signed-in StudioBrowser opens the
 * authorization address an assistant was given, allows on the consent page (write ticked), and
 * follows the redirects back. Answers the parameters the assistant's callback receives.
 */
export async function consentInStudio(
  base: string,
  studio: StudioBrowser,
  authorization: URL,
): Promise<URLSearchParams> {
  const here = (location: string | null) => {
    assert.ok(location, 'a redirect');
    const url = new URL(location, base);
    return url.pathname + url.search;
  };
  const toConsent = await studio.get(authorization.pathname + authorization.search, PROXIED);
  assert.equal(toConsent.status, 303, toConsent.text.slice(0, 300));
  const consentPath = here(toConsent.location);
  const consent = await studio.get(consentPath, PROXIED);
  assert.equal(consent.status, 200, consent.text.slice(0, 300));
  const allowed = await studio.post(consentPath, { _csrf: csrfOf(consent.text), decision: 'allow', scope_write: 'on' });
  assert.equal(allowed.status, 303, allowed.text.slice(0, 300));
  const back = await studio.get(here(allowed.location), PROXIED);
  assert.equal(back.status, 303, back.text.slice(0, 300));
  return new URL(back.location as string).searchParams;
}

/**
 * An assistant authorized through the studio without Chromium: registered by DCR, the consent form
 * posted by a signed-in StudioBrowser, the code exchanged with its PKCE verifier. `base` is the
 * instance's own address; `resource` the protected resource the token is for. With `dpopProof`,
 * the exchange carries a DPoP proof made by it, and the token is bound to that proof's key.
 */
export async function authorizeThroughStudio(
  base: string,
  studio: StudioBrowser,
  options: {
    clientName: string;
    resource: string;
    scope?: string;
    dpopProof?: (htm: string, htu: string) => Promise<string>;
  },
): Promise<{ accessToken: string; refreshToken: string; clientId: string; tokenType: string }> {
  const redirectUri = 'http://127.0.0.1:9/callback';
  const registered = await fetch(`${base}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...PROXIED },
    body: JSON.stringify({
      client_name: options.clientName,
      redirect_uris: [redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    }),
  });
  assert.equal(registered.status, 201, await registered.clone().text());
  const clientId = ((await registered.json()) as { client_id: string }).client_id;
  const verifier = randomBytes(32).toString('base64url');
  const query = new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    redirect_uri: redirectUri,
    scope: options.scope ?? 'read write',
    resource: options.resource,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state: randomBytes(8).toString('hex'),
  });
  const back = await consentInStudio(base, studio, new URL(`${base}/oauth/authorize?${query}`));
  const code = back.get('code');
  assert.ok(code, `a code came back: ${back}`);
  const tokenUrl = `${base}/oauth/token`;
  const exchanged = await fetch(tokenUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...PROXIED,
      ...(options.dpopProof && { dpop: await options.dpopProof('POST', tokenUrl) }),
    },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      client_id: clientId,
      redirect_uri: redirectUri,
      code_verifier: verifier,
      resource: options.resource,
    }),
  });
  assert.equal(exchanged.status, 200, await exchanged.clone().text());
  const tokens = (await exchanged.json()) as { access_token: string; refresh_token: string; token_type: string };
  return {
    accessToken: tokens.access_token,
    refreshToken: tokens.refresh_token,
    clientId,
    tokenType: tokens.token_type,
  };
}
