import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Page } from 'playwright-core';
import { browserSkip, launchBrowser, TEST_RESULTS, type TestBrowser } from '../helpers/browser.ts';
import { testDialects } from '../helpers/dialects.ts';
import { DPOP_CHALLENGE } from '../helpers/dpop.ts';
import { type Harness, startServer } from '../helpers/harness.ts';
import { rest } from '../helpers/http.ts';
import { authorizeThroughStudio, type Callback, MemoryOAuthClient, startCallback } from '../helpers/oauth-client.ts';
import { csrfOf, signedInAs } from '../helpers/studio.ts';

const PASSWORD = 'studio password 123';

/** The consent page, clicked as the creator: optionally leaving write unticked. */
async function consent(page: Page, url: URL, choose: { write?: boolean; publish?: boolean } = {}): Promise<void> {
  await page.goto(url.href);
  if (!/^\/studio\/oauth\//.test(new URL(page.url()).pathname)) {
    throw new Error(`not on the consent page: ${page.url()}\n${(await page.content()).slice(-1200)}`);
  }
  assert.match(new URL(page.url()).pathname, /^\/studio\/oauth\//, `on the consent page: ${page.url()}`);
  assert.ok(await page.getByRole('heading', { name: /^Connect / }).isVisible());
  assert.equal(await page.getByLabel(/Publish changes live/).isChecked(), false, 'publish starts unticked');
  mkdirSync(TEST_RESULTS, { recursive: true });
  await page.screenshot({ path: join(TEST_RESULTS, 'studio-oauth-consent.png'), fullPage: true });
  if (choose.write === false) await page.getByLabel(/Build and edit/).uncheck();
  if (choose.publish) await page.getByLabel(/Publish changes live/).check();
  await page.getByRole('button', { name: 'Allow' }).click();
  await page.waitForURL(/\/callback\?/, { timeout: 10_000 }).catch(async () => {
    throw new Error(`not back at the assistant: ${page.url()}\n${(await page.content()).slice(-1200)}`);
  });
}

/** Connects the MCP SDK 1.x client through OAuth: discovery from the 401, registration, consent in Chromium, code exchange. */
async function connect(h: Harness, page: Page, callback: Callback, oauth: MemoryOAuthClient, choose = {}) {
  const first = new StreamableHTTPClientTransport(new URL(h.mcpUrl), { authProvider: oauth });
  const client = new Client({ name: 'oauth-test', version: '1.0.0' });
  await assert.rejects(client.connect(first), /Unauthorized/);
  assert.ok(oauth.authorizationUrl, 'the SDK asked to open the authorization page');
  await consent(page, oauth.authorizationUrl, choose);
  const back = await callback.next();
  const code = back.get('code');
  assert.ok(code, `a code came back: ${back.toString()}`);
  await first.finishAuth(code);
  const connected = new Client({ name: 'oauth-test', version: '1.0.0' });
  await connected.connect(new StreamableHTTPClientTransport(new URL(h.mcpUrl), { authProvider: oauth }));
  return { client: connected, code };
}

async function tool(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as Array<{ text?: string }>)[0]?.text ?? 'null';
  return { isError: result.isError === true, body: JSON.parse(text) };
}

for (const { dialect, skip } of await testDialects()) {
  describe(`MCP authorization: the official client connects through OAuth (${dialect})`, {
    skip: skip || browserSkip(),
  }, () => {
    let h: Harness;
    let browser: TestBrowser;
    let page: Page;
    let callback: Callback;
    before(async () => {
      const { default: pino } = await import('pino');
      h = await startServer({ dialect, logger: pino({ level: process.env.DEBUG_OAUTH ? 'info' : 'silent' }) });
      browser = await launchBrowser();
      callback = await startCallback();
      await signedInAs(h, h.alice.creatorId, PASSWORD);
      page = (await browser.newPage()).page;
      const alice = await h.creators.find(h.alice.creatorId);
      await page.goto(`${h.origin}/studio/sign-in`);
      await page.getByLabel('Email').fill(alice?.email as string);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
    });
    after(async () => {
      await browser?.close();
      await callback?.close();
      await h?.close();
    });

    it('a request without a credential answers 401 pointing at the protected resource metadata', async () => {
      const mcp = await fetch(h.mcpUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      assert.equal(mcp.status, 401);
      assert.equal(
        mcp.headers.get('www-authenticate'),
        `Bearer resource_metadata="${h.origin}/.well-known/oauth-protected-resource/mcp", scope="read write publish", ${DPOP_CHALLENGE}`,
      );
      const api = await rest(h.baseUrl, 'not-a-real-token', 'GET', '/me');
      assert.equal(api.status, 401);
      assert.equal(
        api.headers.get('www-authenticate'),
        `Bearer error="invalid_token", resource_metadata="${h.origin}/.well-known/oauth-protected-resource/api/v1", scope="read", ${DPOP_CHALLENGE}`,
      );
      const prm: any = await (await fetch(`${h.origin}/.well-known/oauth-protected-resource/mcp`)).json();
      assert.deepEqual(prm.authorization_servers, [h.origin]);
      assert.equal(prm.resource, h.mcpUrl);
      const as: any = await (await fetch(`${h.origin}/.well-known/oauth-authorization-server`)).json();
      assert.equal(as.issuer, h.origin);
      assert.deepEqual(as.code_challenge_methods_supported, ['S256']);
      assert.equal(as.client_id_metadata_document_supported, true);
      assert.ok(as.registration_endpoint, 'dynamic client registration');
      assert.ok(as.revocation_endpoint);
    });

    it('registers, is authorized in the studio, calls tools; the token is for MCP only; refresh rotates; disconnecting stops it', async () => {
      const oauth = new MemoryOAuthClient(callback.url, 'Claude (test)', 'read write');
      const { client } = await connect(h, page, callback, oauth);
      const made = await tool(client, 'create_guide', { name: 'Made through OAuth' });
      assert.equal(made.isError, false, JSON.stringify(made.body));
      const me = await tool(client, 'whoami');
      assert.equal(me.body.creatorId, h.alice.creatorId);
      assert.deepEqual(me.body.key.scopes, ['read', 'write']);

      const clientId = (oauth.client as { client_id: string }).client_id;
      // The token is for MCP only: the REST API refuses it.
      const access = oauth.saved?.access_token as string;
      const onRest = await rest(h.baseUrl, access, 'GET', '/me');
      assert.equal(onRest.status, 401, 'issued for /mcp, refused by /api/v1');

      // Refresh: a new pair; the old refresh token is spent.
      const refresh = oauth.saved?.refresh_token as string;
      assert.ok(refresh, 'a refresh token was issued');
      const refreshed = await fetch(`${h.origin}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refresh, client_id: clientId }),
      });
      assert.equal(refreshed.status, 200, await refreshed.clone().text());
      const pair: any = await refreshed.json();
      assert.notEqual(pair.refresh_token, refresh, 'rotated');
      const again = await fetch(`${h.origin}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refresh, client_id: clientId }),
      });
      assert.equal(again.status, 400, 'a spent refresh token is refused');
      // Reuse means the token leaked: the whole authorization ends, and the studio no longer lists it.
      const listTools = (accessToken: string) =>
        fetch(h.mcpUrl, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${accessToken}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        });
      assert.equal((await listTools(pair.access_token)).status, 401, 'the rotated token ends with it');
      await page.goto(`${h.origin}/studio/assistants`);
      assert.equal(await page.getByText('Claude (test)').count(), 0, 'no dead "connected" row');
      await client.close();

      // The studio lists a connected assistant; disconnecting it stops its tokens.
      const second = new MemoryOAuthClient(callback.url, 'Claude again (test)', 'read write');
      const { client: reconnected } = await connect(h, page, callback, second);
      await page.goto(`${h.origin}/studio/assistants`);
      assert.ok(await page.getByText('Claude again (test)').isVisible());
      await page.getByRole('button', { name: 'Disconnect Claude again (test)' }).click();
      assert.ok(await page.getByText('The assistant is disconnected').isVisible());
      assert.equal((await listTools(second.saved?.access_token as string)).status, 401, 'revoked: 401');
      await reconnected.close();
    });

    it('a replayed authorization code gets nothing, and revokes what the code gave', async () => {
      const oauth = new MemoryOAuthClient(callback.url, 'Replayed (test)', 'read write');
      const { client, code } = await connect(h, page, callback, oauth);
      assert.equal((await tool(client, 'whoami')).isError, false);
      const clientId = (oauth.client as { client_id: string }).client_id;
      const replay = await fetch(`${h.origin}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          client_id: clientId,
          redirect_uri: callback.url,
          code_verifier: oauth.verifier,
        }),
      });
      assert.equal(replay.status, 400);
      assert.equal(((await replay.json()) as any).error, 'invalid_grant');
      const after = await rest(
        h.baseUrl.replace('/api/v1', ''),
        oauth.saved?.access_token,
        'POST',
        '/mcp',
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/list',
        },
        { accept: 'application/json, text/event-stream' },
      );
      assert.equal(after.status, 401, 'the tokens of a replayed code are revoked');
      await client.close();
    });

    it('a read-only authorization reads but is refused a write (403 api_scope_required)', async () => {
      const oauth = new MemoryOAuthClient(callback.url, 'Reader (test)', 'read write');
      const { client } = await connect(h, page, callback, oauth, { write: false });
      const me = await tool(client, 'whoami');
      assert.deepEqual(me.body.key.scopes, ['read']);
      const refused = await tool(client, 'create_guide', { name: 'Not allowed' });
      assert.equal(refused.isError, true);
      assert.equal(refused.body.error.code, 'api_scope_required');
      // Nor can its refresh token widen what the creator granted.
      const escalate = await fetch(`${h.origin}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: oauth.saved?.refresh_token as string,
          client_id: (oauth.client as { client_id: string }).client_id,
          scope: 'read write publish',
        }),
      });
      assert.equal(escalate.status, 400, 'no scope beyond the grant');
      assert.equal(((await escalate.json()) as any).error, 'invalid_scope');
      await client.close();
    });

    it('the 2.x client connects through OAuth the same way', async () => {
      const oauth = new MemoryOAuthClient(callback.url, 'SDK 2 (test)', 'read write');
      // The 2.x line takes the same provider shape.
      const authProvider = oauth as unknown as ConstructorParameters<typeof TransportV2>[1] extends infer O
        ? O extends { authProvider?: infer A }
          ? A
          : never
        : never;
      const first = new TransportV2(new URL(h.mcpUrl), { authProvider });
      await assert.rejects(
        new ClientV2({ name: 'oauth-v2', version: '1.0.0' }).connect(first),
        /Unauthorized|authoriz/i,
      );
      assert.ok(oauth.authorizationUrl);
      await consent(page, oauth.authorizationUrl);
      // The whole callback: the 2.x line checks its iss against the issuer (RFC 9207).
      const back = await callback.next();
      assert.equal(back.get('iss'), h.origin);
      await first.finishAuth(back);
      const client = new ClientV2({ name: 'oauth-v2', version: '1.0.0' });
      await client.connect(new TransportV2(new URL(h.mcpUrl), { authProvider }));
      const result = await client.callTool({ name: 'create_guide', arguments: { name: 'Made by the 2.x client' } });
      assert.equal(result.isError ?? false, false, JSON.stringify(result.content));
      await client.close();
    });

    it("another creator cannot disconnect Alice's assistant", async () => {
      const oauth = new MemoryOAuthClient(callback.url, 'Kept (test)', 'read');
      const { client } = await connect(h, page, callback, oauth);
      const bob = await signedInAs(h, h.bob.creatorId);
      const grants = await h.store.db
        .selectFrom('assistant_authorizations')
        .select('grant_id')
        .where('client_name', '=', 'Kept (test)')
        .execute();
      const grantId = grants[0]?.grant_id as string;
      const bobPage = await bob.get('/studio/assistants');
      assert.ok(!bobPage.text.includes('Kept (test)'));
      const attempt = await bob.post(`/studio/assistants/${grantId}/revoke`, { _csrf: csrfOf(bobPage.text) });
      assert.equal(attempt.status, 404);
      assert.equal((await tool(client, 'whoami')).isError, false, 'still connected');
      await client.close();
    });
  });

  describe(`MCP authorization without a browser (${dialect})`, { skip }, () => {
    let h: Harness;
    before(async () => {
      h = await startServer({ dialect });
    });
    after(async () => {
      await h?.close();
    });

    it('the SDK discovers and registers from the 401 alone (no key pasted anywhere)', async () => {
      const oauth = new MemoryOAuthClient('http://127.0.0.1:9/callback');
      const result = await auth(oauth, { serverUrl: h.mcpUrl });
      assert.equal(result, 'REDIRECT');
      const url = oauth.authorizationUrl as URL;
      assert.equal(url.origin + url.pathname, `${h.origin}/oauth/authorize`);
      assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
      assert.equal(url.searchParams.get('resource'), h.mcpUrl);
      assert.ok((oauth.client as { client_id?: string }).client_id, 'registered by DCR');
    });

    it('a token written under an authorization after it was disconnected (a refresh racing the disconnect) is refused', async () => {
      const studio = await signedInAs(h, h.bob.creatorId);
      const { accessToken } = await authorizeThroughStudio(h.origin, studio, {
        clientName: 'Racing (test)',
        resource: h.baseUrl,
      });
      assert.equal((await rest(h.baseUrl, accessToken, 'GET', '/me')).status, 200);
      const page = await studio.get('/studio/assistants');
      const grantId = /data-grant-id="([^"]+)"/.exec(page.text)?.[1] as string;
      const written = await h.store.db
        .selectFrom('oauth_records')
        .selectAll()
        .where('grant_id', '=', grantId)
        .execute();
      assert.ok(written.some((r) => r.model === 'AccessToken'));
      const disconnected = await studio.post(`/studio/assistants/${grantId}/revoke`, { _csrf: csrfOf(page.text) });
      assert.equal(disconnected.status, 303);
      assert.equal((await rest(h.baseUrl, accessToken, 'GET', '/me')).status, 401);
      // The racing refresh read its token before the disconnect and writes its new ones after it.
      await h.store.db.insertInto('oauth_records').values(written).execute();
      const after = await rest(h.baseUrl, accessToken, 'GET', '/me');
      assert.equal(after.status, 401, 'the studio says disconnected: no token of it works');
      assert.equal(after.body.error.code, 'invalid_api_key');
    });
  });
}
