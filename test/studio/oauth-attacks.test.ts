import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { type AddressInfo, createServer, isIP, type Server } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { buildConnector } from 'undici';
import type { GuardOptions, Resolver } from '../../src/resources/links/safe-fetch.ts';
import { testDialects } from '../helpers/dialects.ts';
import { type Harness, startServer } from '../helpers/harness.ts';
import { authorizeThroughStudio } from '../helpers/oauth-client.ts';
import { csrfOf, signedInAs } from '../helpers/studio.ts';

const REDIRECT = 'http://127.0.0.1:9/callback';

async function register(h: Harness, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await fetch(`${h.origin}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'Attack test',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...extra,
    }),
  });
  assert.equal(res.status, 201, await res.clone().text());
  return ((await res.json()) as { client_id: string }).client_id;
}

function authorizeUrl(h: Harness, params: Record<string, string>): string {
  const verifier = randomBytes(32).toString('base64url');
  const query = new URLSearchParams({
    response_type: 'code',
    redirect_uri: REDIRECT,
    scope: 'read write',
    resource: h.mcpUrl,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state: 'st',
    ...params,
  });
  for (const [k, v] of Object.entries(params)) if (v === '') query.delete(k);
  return `${h.origin}/oauth/authorize?${query}`;
}

/** Names the test's resolver knows, each to an address no document may be fetched from. */
const PRIVATE_NAMES: Record<string, string> = {
  'loopback.test': '127.0.0.1',
  'private.test': '10.0.0.7',
  'metadata.test': '169.254.169.254',
  'v6.test': '::1',
};

/** A local listener that counts the connections it is offered. */
async function listener(): Promise<{ server: Server; port: number; connections: () => number }> {
  let connections = 0;
  const server = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, connections: () => connections };
}

/**
 * How the server fetches client metadata documents, watched: every socket it asks for is recorded
 * before it is opened, and only sockets to 127.0.0.1 are really opened, so nothing leaves this
 * machine whatever the guard decides. `allowed.test` at `allowedPort` is the one address the guard
 * lets through (a test-only loopback port): it shows the watch sees a connection when one is made.
 */
function watchedGuard(allowedPort: number): { guard: Partial<GuardOptions>; dialed: string[] } {
  const dialed: string[] = [];
  const names: Record<string, string> = { ...PRIVATE_NAMES, 'allowed.test': '127.0.0.1' };
  const lookup: Resolver = async (hostname) => {
    const address = names[hostname];
    if (!address) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return [{ address, family: isIP(address) }];
  };
  const connect = buildConnector({ timeout: 2000 });
  const openSocket: GuardOptions['openSocket'] = (target, callback) => {
    dialed.push(`${target.hostname}:${target.port}`);
    if (target.hostname !== '127.0.0.1') return callback(new Error('the test dialer never leaves this machine'), null);
    connect(target, callback);
  };
  return { guard: { lookup, openSocket, testOnlyLoopbackPorts: [allowedPort] }, dialed };
}

for (const { dialect, skip } of await testDialects()) {
  describe(`MCP authorization refuses what it must (${dialect})`, { skip }, () => {
    let h: Harness;
    let trap: Awaited<ReturnType<typeof listener>>;
    let allowed: Awaited<ReturnType<typeof listener>>;
    let dialed: string[];
    before(async () => {
      trap = await listener();
      allowed = await listener();
      const watched = watchedGuard(allowed.port);
      dialed = watched.dialed;
      h = await startServer({ dialect, clientMetadataGuard: watched.guard });
    });
    after(async () => {
      await h?.close();
      for (const local of [trap, allowed]) await new Promise((resolve) => local?.server.close(resolve));
    });

    it('a redirect URI other than the registered one is refused on the server, never followed (exact match)', async () => {
      const clientId = await register(h);
      for (const redirect of [
        'http://127.0.0.1:9/callback/',
        'http://127.0.0.1:9/callback?x=1',
        'http://evil.example/callback',
        'http://127.0.0.1:10/callback',
      ]) {
        const res = await fetch(authorizeUrl(h, { client_id: clientId, redirect_uri: redirect }), {
          redirect: 'manual',
        });
        assert.equal(res.status, 400, `${redirect}: refused`);
        assert.equal(res.headers.get('location'), null, `${redirect}: no redirect to it`);
      }
    });

    it('PKCE is required and S256 only', async () => {
      const clientId = await register(h);
      const missing = await fetch(
        authorizeUrl(h, { client_id: clientId, code_challenge: '', code_challenge_method: '' }),
        { redirect: 'manual' },
      );
      assert.equal(missing.status, 303);
      assert.match(missing.headers.get('location') ?? '', /error=invalid_request/);
      const plain = await fetch(
        authorizeUrl(h, { client_id: clientId, code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' }),
        { redirect: 'manual' },
      );
      assert.equal(plain.status, 303);
      assert.match(plain.headers.get('location') ?? '', /error=invalid_request/);
    });

    it('a resource the server does not protect is refused; a client cannot register for a scope it does not have', async () => {
      const clientId = await register(h);
      const target = await fetch(authorizeUrl(h, { client_id: clientId, resource: 'https://evil.example/mcp' }), {
        redirect: 'manual',
      });
      assert.match(target.headers.get('location') ?? '', /error=invalid_target/);
      const refused = await fetch(`${h.origin}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ redirect_uris: [REDIRECT], scope: 'read admin', token_endpoint_auth_method: 'none' }),
      });
      assert.equal(refused.status, 400);
    });

    it('a client metadata document at a private, loopback or unknown address is refused before any socket is opened', async () => {
      const authorize = async (clientId: string) => {
        const res = await fetch(authorizeUrl(h, { client_id: clientId, redirect_uri: 'https://client.invalid/cb' }), {
          redirect: 'manual',
        });
        assert.equal(res.status, 400, `${clientId}: refused`);
        assert.match(await res.text(), /invalid_client/, clientId);
      };
      // The control: the one address the guard lets through is dialed and its listener reached (no
      // TLS there, so the document is still refused).
      await authorize(`https://allowed.test:${allowed.port}/client.json`);
      assert.ok(dialed.length > 0, 'the allowed address was dialed');
      assert.deepEqual(new Set(dialed), new Set([`127.0.0.1:${allowed.port}`]));
      assert.ok(allowed.connections() > 0, 'and its listener saw the connection');
      dialed.length = 0;
      for (const clientId of [
        `https://loopback.test:${trap.port}/client.json`,
        `https://127.0.0.1:${trap.port}/client.json`,
        'https://private.test/client.json',
        'https://10.0.0.7/client.json',
        'https://metadata.test/latest/meta-data',
        'https://169.254.169.254/latest/meta-data',
        'https://v6.test/client.json',
        'https://[::1]/client.json',
        'https://client.invalid/oauth/client.json',
      ]) {
        await authorize(clientId);
      }
      assert.deepEqual(dialed, [], 'no socket was asked for');
      assert.equal(trap.connections(), 0, 'the local listener at the loopback address saw no connection');
    });

    it('the consent and disconnect forms need their token and the studio session', async () => {
      const alice = await signedInAs(h, h.alice.creatorId);
      const assistants = await alice.get('/studio/assistants');
      assert.equal(assistants.status, 200);
      const token = csrfOf(assistants.text);
      const consent = await alice.post('/studio/oauth/made-up-interaction', { decision: 'allow', scope_write: 'on' });
      assert.equal(consent.status, 403, 'no token');
      const crossSite = await alice.post(
        '/studio/oauth/made-up-interaction',
        { _csrf: token, decision: 'allow' },
        { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      );
      assert.equal(crossSite.status, 403, 'another site');
      const unknown = await alice.post('/studio/oauth/made-up-interaction', { _csrf: token, decision: 'allow' });
      assert.equal(unknown.status, 400, 'no open request: nothing granted');
      const revoke = await alice.post('/studio/assistants/some-grant/revoke', {});
      assert.equal(revoke.status, 403);
      const notMine = await alice.post('/studio/assistants/some-grant/revoke', { _csrf: token });
      assert.equal(notMine.status, 404);
      const signedOut = await fetch(`${h.origin}/studio/oauth/anything`, { redirect: 'manual' });
      assert.equal(signedOut.status, 303);
      assert.equal(
        signedOut.headers.get('location'),
        `/studio/sign-in?next=${encodeURIComponent('/studio/oauth/anything')}`,
      );
    });

    it('a reused refresh token ends the authorization, and the Assistants page no longer lists it', async () => {
      const alice = await signedInAs(h, h.alice.creatorId);
      const refresh = (refreshToken: string, clientId: string) =>
        fetch(`${h.origin}/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId }),
        });
      const name = 'Reused refresh test';
      const tokens = await authorizeThroughStudio(h.origin, alice, { clientName: name, resource: h.mcpUrl });
      assert.ok((await alice.get('/studio/assistants')).text.includes(name), 'listed once connected');
      assert.equal((await refresh(tokens.refreshToken, tokens.clientId)).status, 200, 'rotated once');
      const reused = await refresh(tokens.refreshToken, tokens.clientId);
      assert.equal(reused.status, 400, 'the spent refresh token is refused');
      assert.equal(((await reused.json()) as { error: string }).error, 'invalid_grant');
      const page = await alice.get('/studio/assistants');
      assert.equal(page.status, 200);
      assert.ok(!page.text.includes(name), 'no dead "connected" row');
    });

    it('a token is refused when made up, and the metadata says what the server supports', async () => {
      const res = await fetch(h.mcpUrl, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${randomBytes(32).toString('base64url')}`,
          'content-type': 'application/json',
        },
        body: '{}',
      });
      assert.equal(res.status, 401);
      assert.match(res.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
      const as: any = await (await fetch(`${h.origin}/.well-known/oauth-authorization-server`)).json();
      assert.deepEqual(as.grant_types_supported.sort(), ['authorization_code', 'refresh_token']);
      assert.deepEqual(as.response_types_supported, ['code']);
      assert.ok(as.scopes_supported.includes('publish'));
    });
  });
}
