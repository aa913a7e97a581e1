import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testDialects } from '../helpers/dialects.ts';
import { type Harness, startServer } from '../helpers/harness.ts';
import { rest } from '../helpers/http.ts';
import { callTool, mcpClient } from '../helpers/mcp.ts';
import { csrfOf, StudioBrowser } from '../helpers/studio.ts';

const PASSWORD = 'correct horse battery';

function secretIn(text: string): string {
  const match = /data-secret>(sk_service_[\w-]+)</.exec(text);
  assert.ok(match, 'the new key is on the page');
  return match[1] as string;
}

for (const { dialect, skip } of await testDialects()) {
  describe(`studio API keys (${dialect})`, { skip }, () => {
    let h: Harness;
    let ana: StudioBrowser;
    let ben: StudioBrowser;
    before(async () => {
      h = await startServer({ dialect });
      ana = new StudioBrowser(h.origin);
      ben = new StudioBrowser(h.origin);
      await ana.signUp('ana@example.com', 'Ana Trails', PASSWORD);
      await ben.signUp('ben@example.com', 'Ben Coast', PASSWORD);
    });
    after(async () => {
      await h?.close();
    });
    /** Ana sends the new-key form of her keys page. */
    const newKey = (form: Record<string, string>) => ana.submit('/studio/keys', '/studio/keys', form);

    it('makes a key with a name, scopes and an expiry; its secret is shown once and works', async () => {
      const made = await newKey({
        name: 'Claude on my laptop',
        scope: 'write',
        publish: 'on',
        expires: '30',
      });
      assert.equal(made.status, 201, made.text.slice(0, 500));
      const key = secretIn(made.text);
      assert.match(made.text, /not shown again/);
      const me = await rest(h.baseUrl, key, 'GET', '/me');
      assert.equal(me.status, 200);
      assert.deepEqual(me.body.key.scopes, ['read', 'write', 'publish']);

      const client = await mcpClient(h.mcpUrl, key);
      try {
        const whoami = await callTool(client, 'whoami');
        assert.equal(whoami.body.key.keyId, me.body.key.keyId);
      } finally {
        await client.close();
      }

      const list = await ana.get('/studio/keys');
      assert.equal(list.status, 200);
      assert.ok(!list.text.includes(key), 'the list never shows the secret');
      assert.ok(!list.text.includes(key.slice(11, -4)), 'nor any part of it beyond the last four');
      const row = new RegExp(`data-key-id="${me.body.key.keyId}"[\\s\\S]*?</tr>`).exec(list.text)?.[0] ?? '';
      assert.match(row, /Claude on my laptop/);
      assert.match(row, /read<\/span><span class="tag">write<\/span><span class="tag">publish/);
      assert.match(row, /Last used">2026-11-23 10:00 UTC/, 'last used is shown once the key was used');
      assert.match(row, /Expires">2026-12-23 10:00 UTC/);
    });

    it('a read key cannot write; publish is refused without write', async () => {
      const made = await newKey({
        name: 'Reader',
        scope: 'read',
        expires: 'never',
      });
      const key = secretIn(made.text);
      const denied = await rest(h.baseUrl, key, 'POST', '/guides', { name: 'Nope' });
      assert.equal(denied.status, 403);
      assert.equal(denied.body.error.code, 'api_scope_required');
      const refused = await newKey({
        name: 'Bad',
        scope: 'read',
        publish: 'on',
        expires: 'never',
      });
      assert.equal(refused.status, 400);
      assert.match(refused.text, /Publishing needs read and write/);
      assert.doesNotMatch(refused.text, /data-secret/);
      const noName = await newKey({ name: ' ', scope: 'read', expires: 'never' });
      assert.equal(noName.status, 400);
    });

    it('revokes a key: it stops working at once', async () => {
      const made = await newKey({
        name: 'Short-lived',
        scope: 'write',
        expires: '7',
      });
      const key = secretIn(made.text);
      const { keyId } = (await rest(h.baseUrl, key, 'GET', '/me')).body.key;
      const revoked = await ana.post(`/studio/keys/${keyId}/revoke`, { _csrf: csrfOf(made.text) });
      assert.equal(revoked.status, 303);
      assert.equal(revoked.location, '/studio/keys?done=key-revoked');
      const refused = await rest(h.baseUrl, key, 'GET', '/me');
      assert.equal(refused.status, 401);
      assert.equal(refused.body.error.code, 'invalid_api_key');
      const page = await ana.get('/studio/keys?done=key-revoked');
      assert.match(page.text, /The key is revoked/);
      assert.match(page.text, /revoked 2026-11-23/);
    });

    it("another creator can neither see nor revoke Ana's keys", async () => {
      const made = await newKey({ name: 'Mine', scope: 'write', expires: 'never' });
      const key = secretIn(made.text);
      const { keyId } = (await rest(h.baseUrl, key, 'GET', '/me')).body.key;
      const benPage = await ben.get('/studio/keys');
      assert.ok(!benPage.text.includes(keyId), "Ben's list holds none of Ana's keys");
      const attempt = await ben.post(`/studio/keys/${keyId}/revoke`, { _csrf: csrfOf(benPage.text) });
      assert.equal(attempt.status, 404);
      assert.equal((await rest(h.baseUrl, key, 'GET', '/me')).status, 200, 'the key still works');
    });

    it('the key forms refuse posts without the token or from another site, and need a session', async () => {
      const page = await ana.get('/studio/keys');
      const token = csrfOf(page.text);
      const none = await ana.post('/studio/keys', { name: 'Forged', scope: 'write', expires: 'never' });
      assert.equal(none.status, 403);
      const cross = await ana.post(
        '/studio/keys',
        { _csrf: token, name: 'Forged', scope: 'write', expires: 'never' },
        { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      );
      assert.equal(cross.status, 403);
      assert.doesNotMatch(cross.text, /data-secret/);
      const signedOut = new StudioBrowser(h.origin);
      const blind = await signedOut.submit('/studio/sign-in', '/studio/keys', {
        name: 'x',
        scope: 'write',
        expires: 'never',
      });
      assert.equal(blind.status, 303, 'no session: sent to sign in');
      assert.match(blind.location ?? '', /^\/studio\/sign-in/);
      const listed = await ana.get('/studio/keys');
      assert.doesNotMatch(listed.text, /Forged/);
    });
  });
}
