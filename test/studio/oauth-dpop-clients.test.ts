import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  Client as ClientV2,
  type OAuthClientProvider as ProviderV2,
  StreamableHTTPClientTransport as TransportV2,
} from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { testDialects } from '../helpers/dialects.ts';
import { type Harness, startServer } from '../helpers/harness.ts';
import { answerOf } from '../helpers/mcp.ts';
import { consentInStudio, DpopOAuthClient, MemoryOAuthClient } from '../helpers/oauth-client.ts';
import { type StudioBrowser, signedInAs } from '../helpers/studio.ts';

/** Where the authorization server sends codes back: never called, the studio's redirect is read instead. */
const REDIRECT = 'http://127.0.0.1:9/callback';

/** A connected client of either line, reduced to what the tests ask of it. */
interface Connected {
  callTool(name: string, args?: Record<string, unknown>): Promise<{ isError: boolean; body: any }>;
  close(): Promise<void>;
}

/**
 * Each official client line connects through its own OAuth support: the first connect is refused
 * (401), discovery and registration follow from it, the creator allows in the studio, the code
 * comes back and is exchanged, and the second connect carries the token.
 */
const LINES = {
  async '2.x'(h: Harness, studio: StudioBrowser, oauth: MemoryOAuthClient): Promise<Connected> {
    const authProvider = oauth as unknown as ProviderV2;
    const first = new TransportV2(new URL(h.mcpUrl), { authProvider });
    await assert.rejects(new ClientV2({ name: 'dpop-v2', version: '1.0.0' }).connect(first), /Unauthorized|authoriz/i);
    assert.ok(oauth.authorizationUrl, 'the client asked to open the authorization page');
    // The whole callback: the 2.x line checks its iss against the issuer (RFC 9207).
    await first.finishAuth(await consentInStudio(h.origin, studio, oauth.authorizationUrl));
    const client = new ClientV2({ name: 'dpop-v2', version: '1.0.0' });
    await client.connect(new TransportV2(new URL(h.mcpUrl), { authProvider }));
    return {
      callTool: async (name, args = {}) =>
        answerOf((await client.callTool({ name, arguments: args })) as Record<string, unknown>),
      close: () => client.close(),
    };
  },
  async '1.x'(h: Harness, studio: StudioBrowser, oauth: MemoryOAuthClient): Promise<Connected> {
    const first = new StreamableHTTPClientTransport(new URL(h.mcpUrl), { authProvider: oauth });
    await assert.rejects(new Client({ name: 'dpop-v1', version: '1.0.0' }).connect(first), /Unauthorized/);
    assert.ok(oauth.authorizationUrl, 'the client asked to open the authorization page');
    const code = (await consentInStudio(h.origin, studio, oauth.authorizationUrl)).get('code');
    assert.ok(code, 'a code came back');
    await first.finishAuth(code);
    const client = new Client({ name: 'dpop-v1', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(h.mcpUrl), { authProvider: oauth }));
    return {
      callTool: async (name, args = {}) =>
        answerOf((await client.callTool({ name, arguments: args })) as Record<string, unknown>),
      close: () => client.close(),
    };
  },
};

/** The 1.x line has no DPoP (it knows the metadata fields, nothing signs proofs): it is tested without. */
const COMBINATIONS = [
  { line: '2.x', dpop: true },
  { line: '2.x', dpop: false },
  { line: '1.x', dpop: false },
] as const;

for (const { dialect, skip } of await testDialects()) {
  describe(`the official MCP clients through OAuth, with and without DPoP (${dialect})`, { skip }, () => {
    let h: Harness;
    let studio: StudioBrowser;
    before(async () => {
      h = await startServer({ dialect });
      studio = await signedInAs(h, h.alice.creatorId);
    });
    after(async () => {
      await h?.close();
    });

    const proofsTaken = async () =>
      Number(
        (
          await h.store.db
            .selectFrom('dpop_proofs')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirst()
        )?.n,
      );

    for (const { line, dpop } of COMBINATIONS) {
      it(`the ${line} client ${dpop ? 'with' : 'without'} DPoP connects and calls tools`, async () => {
        const name = `SDK ${line} ${dpop ? 'DPoP' : 'Bearer'} (test)`;
        const oauth = dpop ? new DpopOAuthClient(REDIRECT, name) : new MemoryOAuthClient(REDIRECT, name);
        const proofsBefore = await proofsTaken();
        const client = await LINES[line](h, studio, oauth);
        const made = await client.callTool('create_guide', { name: `Made by ${name}` });
        assert.equal(made.isError, false, JSON.stringify(made.body));
        const me = await client.callTool('whoami');
        assert.equal(me.body.creatorId, h.alice.creatorId);
        await client.close();

        const token = oauth.saved?.access_token as string;
        assert.equal(oauth.saved?.token_type, dpop ? 'DPoP' : 'Bearer');
        // Every request of a DPoP client came with a proof the resource took; the others sent none.
        const proofs = (await proofsTaken()) - proofsBefore;
        if (dpop) assert.ok(proofs >= 3, `proofs taken: ${proofs}`);
        else assert.equal(proofs, 0);
        // The token alone, as Bearer: a bound one is worth nothing without its key.
        const asBearer = await fetch(h.mcpUrl, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        });
        assert.equal(asBearer.status, dpop ? 401 : 200);
        if (dpop) assert.match(asBearer.headers.get('www-authenticate') ?? '', /DPoP error="invalid_token"/);
      });
    }
  });
}
