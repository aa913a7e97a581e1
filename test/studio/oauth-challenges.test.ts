import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError } from '../helpers/answers.ts';
import { testDialects } from '../helpers/dialects.ts';
import { DPOP_CHALLENGE } from '../helpers/dpop.ts';
import { type Harness, startServer } from '../helpers/harness.ts';
import { rest } from '../helpers/http.ts';
import { authorizeThroughStudio } from '../helpers/oauth-client.ts';
import { signedInAs } from '../helpers/studio.ts';

/**
 * What a refusal at /mcp or /api/v1 tells a client in WWW-Authenticate (MCP 2025-11-25,
 * RFC 6750, RFC 9449, RFC 9728): a 401 says where to authorize and which scopes to ask for, and
 * that DPoP is taken; a credential that lacks the scope the request needs gets 403 with
 * insufficient_scope and that scope, beside the specification's envelope (api_scope_required).
 */

for (const { dialect, skip } of await testDialects()) {
  describe(`the challenges of /mcp and /api/v1 (${dialect})`, { skip }, () => {
    let h: Harness;
    let metadata: { mcp: string; rest: string };
    before(async () => {
      h = await startServer({ dialect });
      metadata = {
        mcp: `${h.origin}/.well-known/oauth-protected-resource/mcp`,
        rest: `${h.origin}/.well-known/oauth-protected-resource/api/v1`,
      };
    });
    after(async () => {
      await h?.close();
    });

    const mcpCall = (authorization?: string) =>
      fetch(h.mcpUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(authorization && { authorization }),
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });

    it('401 from /mcp: where to authorize, every scope its tools use, and DPoP', async () => {
      const missing = await mcpCall();
      assert.equal(missing.status, 401);
      assert.equal(
        missing.headers.get('www-authenticate'),
        `Bearer resource_metadata="${metadata.mcp}", scope="read write publish", ${DPOP_CHALLENGE}`,
      );
      const unknown = await mcpCall('Bearer not-a-real-token');
      assert.equal(
        unknown.headers.get('www-authenticate'),
        `Bearer error="invalid_token", resource_metadata="${metadata.mcp}", scope="read write publish", ${DPOP_CHALLENGE}`,
      );
    });

    it('401 from /api/v1: the scopes of the operation called', async () => {
      for (const [method, path, scope] of [
        ['GET', '/me', 'read'],
        ['POST', '/guides', 'read write'],
        ['POST', '/guides/gd_unknown/publish', 'read write publish'],
      ] as const) {
        const refused = await rest(h.baseUrl, 'not-a-real-token', method, path, method === 'POST' ? {} : undefined);
        assert.equal(refused.status, 401, `${method} ${path}`);
        assert.equal(
          refused.headers.get('www-authenticate'),
          `Bearer error="invalid_token", resource_metadata="${metadata.rest}", scope="${scope}", ${DPOP_CHALLENGE}`,
          `${method} ${path}`,
        );
      }
    });

    it('403 insufficient_scope from /api/v1 for a key without the scope, with the envelope the specification names', async () => {
      const reader = await rest(h.baseUrl, h.alice.readKey, 'POST', '/guides', { name: 'Not allowed' });
      assertError(reader, 'api_scope_required');
      assert.equal(
        reader.headers.get('www-authenticate'),
        `Bearer error="insufficient_scope", scope="read write", resource_metadata="${metadata.rest}"`,
      );
      const writer = await rest(h.baseUrl, h.alice.writeKey, 'POST', '/guides/gd_unknown/publish', {});
      assertError(writer, 'api_scope_required');
      assert.equal(
        writer.headers.get('www-authenticate'),
        `Bearer error="insufficient_scope", scope="read write publish", resource_metadata="${metadata.rest}"`,
      );
      const allowed = await rest(h.baseUrl, h.alice.readKey, 'GET', '/me');
      assert.equal(allowed.status, 200);
      assert.equal(allowed.headers.get('www-authenticate'), null);
    });

    it('403 insufficient_scope from /mcp for a token without read, the scope every call needs', async () => {
      const studio = await signedInAs(h, h.bob.creatorId);
      const { accessToken } = await authorizeThroughStudio(h.origin, studio, {
        clientName: 'No read (test)',
        resource: h.mcpUrl,
      });
      assert.equal((await mcpCall(`Bearer ${accessToken}`)).status, 200);
      // The studio always grants read; a token written without it (by hand, or by a future
      // consent page) must not act as a reader.
      const row = await h.store.db
        .selectFrom('oauth_records')
        .select('payload')
        .where('model', '=', 'AccessToken')
        .where('id', '=', accessToken)
        .executeTakeFirstOrThrow();
      const payload = { ...JSON.parse(row.payload), scope: 'write' };
      await h.store.db
        .updateTable('oauth_records')
        .set({ payload: JSON.stringify(payload) })
        .where('model', '=', 'AccessToken')
        .where('id', '=', accessToken)
        .execute();
      const refused = await mcpCall(`Bearer ${accessToken}`);
      assertError({ status: refused.status, body: await refused.json() }, 'api_scope_required');
      assert.equal(
        refused.headers.get('www-authenticate'),
        `Bearer error="insufficient_scope", scope="read", resource_metadata="${metadata.mcp}"`,
      );
    });
  });
}
