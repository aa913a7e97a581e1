import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';

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
    const params = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams;
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
