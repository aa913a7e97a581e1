import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { browserSkip, launchBrowser, type TestBrowser } from '../helpers/browser.ts';
import { testDialects } from '../helpers/dialects.ts';
import { type Harness, offlineResolver, startServer } from '../helpers/harness.ts';
import { type Callback, MemoryOAuthClient, startCallback } from '../helpers/oauth-client.ts';
import { signedInAs } from '../helpers/studio.ts';

/** A certificate for 127.0.0.1, made for this test: the metadata document is served over TLS, as the draft requires. */
function localCertificate(dir: string): { key: string; cert: string } {
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
}

for (const { dialect, skip } of await testDialects()) {
  /** Clients of the 2026-07-28 revision name themselves by a URL: the server fetches who they are. */
  describe(`MCP authorization with a client metadata document (URL client id, ${dialect})`, {
    skip: skip || browserSkip(),
  }, () => {
    let h: Harness;
    let browser: TestBrowser;
    let callback: Callback;
    let metadataServer: Server;
    let clientId: string;
    let dir: string;
    let fetched = 0;
    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'cimd-'));
      const tls = localCertificate(dir);
      callback = await startCallback();
      metadataServer = createServer(tls, (req, res) => {
        fetched += 1;
        if (req.url !== '/oauth/client.json') return void res.writeHead(404).end();
        res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=60' }).end(
          JSON.stringify({
            client_id: clientId,
            client_name: 'Hosted Assistant',
            redirect_uris: [callback.url],
            grant_types: ['authorization_code', 'refresh_token'],
            response_types: ['code'],
            token_endpoint_auth_method: 'none',
          }),
        );
      });
      await new Promise<void>((resolve) => metadataServer.listen(0, '127.0.0.1', resolve));
      const { port } = metadataServer.address() as AddressInfo;
      clientId = `https://127.0.0.1:${port}/oauth/client.json`;
      // The guard lets exactly this loopback port through and trusts this certificate; nothing else changes.
      h = await startServer({
        dialect,
        clientMetadataGuard: { lookup: offlineResolver, testOnlyLoopbackPorts: [port], testOnlyCa: tls.cert },
      });
      browser = await launchBrowser();
    });
    after(async () => {
      await browser?.close();
      await callback?.close();
      await new Promise((resolve) => metadataServer?.close(resolve));
      await h?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('the SDK uses its URL as client id; the server fetches the document through the guard; consent; a tool call', async () => {
      await signedInAs(h, h.alice.creatorId, 'studio password 123');
      const { page } = await browser.newPage();
      await page.goto(`${h.origin}/studio/sign-in`);
      await page.getByLabel('Email').fill((await h.creators.find(h.alice.creatorId))?.email as string);
      await page.getByLabel('Password').fill('studio password 123');
      await page.getByRole('button', { name: 'Sign in' }).click();

      const oauth = new MemoryOAuthClient(callback.url, 'Hosted Assistant', 'read write');
      oauth.clientMetadataUrl = clientId;
      const first = new StreamableHTTPClientTransport(new URL(h.mcpUrl), { authProvider: oauth });
      await assert.rejects(new Client({ name: 'cimd', version: '1.0.0' }).connect(first), /Unauthorized/);
      const url = oauth.authorizationUrl as URL;
      assert.equal(url.searchParams.get('client_id'), clientId, 'no registration: the URL is the id');
      await page.goto(url.href);
      assert.ok(await page.getByRole('heading', { name: 'Connect Hosted Assistant?' }).isVisible());
      assert.ok(await page.getByText(clientId).isVisible(), 'the consent page shows where the client said who it is');
      await page.getByRole('button', { name: 'Allow' }).click();
      await page.waitForURL(/\/callback\?/);
      const code = new URL(page.url()).searchParams.get('code');
      assert.ok(code);
      await first.finishAuth(code);
      assert.ok(fetched >= 1, 'the document was fetched');

      const client = new Client({ name: 'cimd', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(h.mcpUrl), { authProvider: oauth }));
      const result = await client.callTool({ name: 'whoami', arguments: {} });
      const me = JSON.parse((result.content as Array<{ text: string }>)[0]?.text ?? '{}');
      assert.equal(me.creatorId, h.alice.creatorId);
      await client.close();
      await page.goto(`${h.origin}/studio/assistants`);
      assert.ok(await page.getByText('Hosted Assistant').isVisible());
      await page.context().close();
    });
  });
}
